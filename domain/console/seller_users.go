package console

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// UserStatus is where a seller user's account stands.
type UserStatus string

// An account is invited until it accepts an invitation, active after,
// disabled for good once disabled.
const (
	Invited  UserStatus = "invited"
	Active   UserStatus = "active"
	Disabled UserStatus = "disabled"
)

// SellerUserAccount is a seller user as the portal's users page and
// `tenure sellers users list` show it.
type SellerUserAccount struct {
	User
	Status    UserStatus
	CreatedAt time.Time
}

// ErrNoSellerUser is a user id the seller has no user of: another
// seller's user is not found either.
var ErrNoSellerUser = errors.New("the seller has no such user")

// ErrDisableSelf refuses a seller admin disabling their own account, which
// could leave the seller without an admin.
var ErrDisableSelf = errors.New("you cannot disable your own account")

// SellerUsers are a seller's users by e-mail address.
func (a *Accounts) SellerUsers(ctx context.Context, sellerID uuid.UUID) ([]SellerUserAccount, error) {
	rows, err := a.Store.ListSellerUsers(ctx, sellerID)
	if err != nil {
		return nil, err
	}
	out := make([]SellerUserAccount, len(rows))
	for i, r := range rows {
		status := Active
		switch {
		case r.ConsoleUser.DisabledAt != nil:
			status = Disabled
		case r.Invited && !r.Accepted:
			status = Invited
		}
		out[i] = SellerUserAccount{User: userOf(r.ConsoleUser), Status: status, CreatedAt: r.ConsoleUser.CreatedAt}
	}
	return out, nil
}

// SellerUser is one of a seller's users by id; ErrNoSellerUser for
// another seller's.
func (a *Accounts) SellerUser(ctx context.Context, sellerID, userID uuid.UUID) (User, error) {
	row, err := a.Store.GetSellerUser(ctx, dbgen.GetSellerUserParams{ID: userID, SellerID: sellerID})
	if db.IsNotFound(err) {
		return User{}, ErrNoSellerUser
	}
	if err != nil {
		return User{}, err
	}
	return userOf(row), nil
}

// DisableSellerUser disables one of a seller's users for one of its
// admins, never the admin themselves.
func (a *Accounts) DisableSellerUser(ctx context.Context, by User, userID uuid.UUID) (User, error) {
	if by.SellerID == nil {
		return User{}, ErrNoSellerUser
	}
	if by.ID == userID {
		return User{}, ErrDisableSelf
	}
	u, err := a.SellerUser(ctx, *by.SellerID, userID)
	if err != nil {
		return User{}, err
	}
	return u, a.Disable(ctx, u.Email)
}
