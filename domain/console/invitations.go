package console

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// InvitationPath is where an invitation's link opens, under the public
// address; the token follows it.
const InvitationPath = "/console/invitation/"

// InvitationLink is the link of an invitation's token under the
// deployment's public address.
func InvitationLink(publicURL, token string) string {
	return strings.TrimRight(publicURL, "/") + InvitationPath + token
}

// Invitation is a single-use link to set an account up: the token its link
// carries (the database keeps only its digest) and when it expires.
type Invitation struct {
	Token     string
	User      User
	ExpiresAt time.Time
}

// OpenInvitation is an invitation a browser opened: its account and the
// TOTP provisioning URI the account is to add to an authenticator app.
type OpenInvitation struct {
	User            User
	ProvisioningURI string
	ExpiresAt       time.Time
}

// The answers to an invitation that cannot be accepted: a token no
// invitation has, one used already, one past its expiry. The first is a
// 404, the others a 410: the link was good once.
var (
	ErrNoInvitation      = errors.New("no invitation has this link")
	ErrInvitationUsed    = errors.New("this invitation was used already: sign in, or ask for a new invitation")
	ErrInvitationExpired = errors.New("this invitation has expired: ask for a new one")
)

// ErrCodeRefused is a TOTP code that is not the current one of the
// invitation's key.
var ErrCodeRefused = errors.New("the code is not the current one of the key just added")

// InviteSellerUser makes an account for a seller's user with no usable
// password and an invitation to set it up; invitedBy names who invites.
func (a *Accounts) InviteSellerUser(ctx context.Context, sellerID uuid.UUID, email string, role Role, invitedBy string) (Invitation, error) {
	if _, err := ParseSellerRole(string(role)); err != nil {
		return Invitation{}, err
	}
	acct, err := a.create(ctx, User{Kind: SellerUser, Email: email, Role: role, SellerID: &sellerID}, "")
	if err != nil {
		return Invitation{}, err
	}
	return a.Invite(ctx, acct.User, invitedBy)
}

// Invite makes a new invitation for an existing account: accepting it sets
// the account's password anew and shows its TOTP key again. It serves an
// account whose first invitation expired, and `tenure dev`'s sign-in links.
// The account's generated password is never shown, so until an invitation
// is accepted the account has no password anybody knows.
func (a *Accounts) Invite(ctx context.Context, u User, invitedBy string) (Invitation, error) {
	now := a.Now()
	inv := Invitation{Token: rand.Text(), User: u, ExpiresAt: now.Add(a.InvitationTTL)}
	err := a.Store.CreateConsoleInvitation(ctx, dbgen.CreateConsoleInvitationParams{
		TokenDigest: digest(inv.Token), UserID: u.ID, InvitedBy: invitedBy, CreatedAt: now, ExpiresAt: inv.ExpiresAt,
	})
	return inv, err
}

// Invitation is the open invitation of a token, with its account's TOTP
// key as a provisioning URI; ErrNoInvitation, ErrInvitationUsed or
// ErrInvitationExpired when it cannot be accepted. A disabled account's
// invitation is no invitation any more.
func (a *Accounts) Invitation(ctx context.Context, token string) (OpenInvitation, error) {
	row, err := a.Store.GetConsoleInvitation(ctx, digest(token))
	switch {
	case db.IsNotFound(err) || (err == nil && row.ConsoleUser.DisabledAt != nil):
		return OpenInvitation{}, ErrNoInvitation
	case err != nil:
		return OpenInvitation{}, err
	case row.UsedAt != nil:
		return OpenInvitation{}, ErrInvitationUsed
	case !a.Now().Before(row.ExpiresAt):
		return OpenInvitation{}, ErrInvitationExpired
	}
	secret, err := a.TOTPKeys.Open(row.ConsoleUser.TotpSecret, row.ConsoleUser.ID[:])
	if err != nil {
		return OpenInvitation{}, err
	}
	u := userOf(row.ConsoleUser)
	return OpenInvitation{User: u, ProvisioningURI: ProvisioningURI(u.Email, secret), ExpiresAt: row.ExpiresAt}, nil
}

// AcceptInvitation sets the account of an open invitation up: the password
// (at least MinPasswordLength characters) and a current code of the TOTP
// key the invitation showed, which proves the key was added. It uses the
// invitation up and signs the account in. Wrong codes count as failed
// sign-ins of the account, so they are throttled alike.
func (a *Accounts) AcceptInvitation(ctx context.Context, token, password, code, address string) (Session, error) {
	open, err := a.Invitation(ctx, token)
	if err != nil {
		return Session{}, err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return Session{}, err
	}
	now := a.Now()
	counts, err := a.Store.CountConsoleSignInFailures(ctx, dbgen.CountConsoleSignInFailuresParams{
		Email: open.User.Email, Address: address, Since: now.Add(-ThrottleWindow),
	})
	if err != nil {
		return Session{}, err
	}
	if counts.ByAccount >= maxFailuresAccount || counts.ByAddress >= maxFailuresAddress {
		return Session{}, ErrThrottled
	}
	row, err := a.Store.GetConsoleUserByEmail(ctx, open.User.Email)
	if err != nil {
		return Session{}, err
	}
	secret, err := a.TOTPKeys.Open(row.TotpSecret, row.ID[:])
	if err != nil {
		return Session{}, err
	}
	step, ok := MatchTOTP(secret, strings.TrimSpace(code), now)
	if !ok {
		if err := a.Store.RecordConsoleSignInFailure(ctx, dbgen.RecordConsoleSignInFailureParams{
			Email: open.User.Email, Address: address, FailedAt: now,
		}); err != nil {
			return Session{}, err
		}
		return Session{}, ErrCodeRefused
	}
	err = a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		used, err := q.UseConsoleInvitation(ctx, dbgen.UseConsoleInvitationParams{Now: now, TokenDigest: digest(token)})
		if err != nil {
			return err
		}
		if used == 0 {
			// Accepted in another tab meanwhile.
			return ErrInvitationUsed
		}
		if err := q.SetConsoleUserPassword(ctx, dbgen.SetConsoleUserPasswordParams{ID: row.ID, PasswordHash: hash}); err != nil {
			return err
		}
		stepped, err := q.UseConsoleTOTPStep(ctx, dbgen.UseConsoleTOTPStepParams{ID: row.ID, Step: step})
		if err != nil {
			return err
		}
		if stepped == 0 {
			return ErrCodeRefused
		}
		return nil
	})
	if err != nil {
		return Session{}, err
	}
	return a.startSession(ctx, open.User)
}

// InviteAccount invites the account of u's e-mail address, making it first
// (of u's kind, role and seller, with no password anybody knows) when no
// account has the address. An existing account keeps its kind and role.
func (a *Accounts) InviteAccount(ctx context.Context, u User, invitedBy string) (Invitation, error) {
	row, err := a.Store.GetConsoleUserByEmail(ctx, strings.ToLower(u.Email))
	switch {
	case db.IsNotFound(err):
		acct, err := a.create(ctx, u, "")
		if err != nil {
			return Invitation{}, err
		}
		return a.Invite(ctx, acct.User, invitedBy)
	case err != nil:
		return Invitation{}, err
	}
	return a.Invite(ctx, userOf(row), invitedBy)
}
