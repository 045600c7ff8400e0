package console

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// Accounts keeps the console's accounts and sessions in PostgreSQL.
type Accounts struct {
	Store *db.Store
	// TOTPKeys seal the accounts' TOTP secrets, each under its account's id.
	TOTPKeys *keyring.Ring
	// RelyingParty is the console as its passkeys know it.
	RelyingParty *RelyingParty
	// IdleTimeout and AbsoluteTimeout end sessions (see config.ConsoleConfig).
	IdleTimeout, AbsoluteTimeout time.Duration
	// InvitationTTL is how long an invitation's link may be accepted.
	InvitationTTL time.Duration
	// Now is the clock; tests move it.
	Now func() time.Time
}

// User is an account as the console acts for it.
type User struct {
	ID    uuid.UUID
	Kind  Kind
	Email string
	Role  Role
	// SellerID is the seller a seller user works for; nil for operators.
	SellerID *uuid.UUID
}

// NewAccount is a created account with what its owner needs once: the
// TOTP provisioning URI, the recovery codes and, when none was given, the
// generated password.
type NewAccount struct {
	User
	ProvisioningURI string
	// Password is the generated password ("" when the creator gave one).
	Password      string
	RecoveryCodes []string
}

// ErrEmailTaken refuses a second account with an e-mail address.
var ErrEmailTaken = errors.New("an account with this e-mail address exists")

// ErrNotAnEmail refuses an account whose e-mail address is none.
var ErrNotAnEmail = errors.New("not an e-mail address")

// ErrNoAccount is an e-mail address no account has.
var ErrNoAccount = errors.New("no account with this e-mail address")

// CreateOperator makes an operator account; an empty password makes one
// up and returns it.
func (a *Accounts) CreateOperator(ctx context.Context, email string, role Role, password string) (NewAccount, error) {
	return a.create(ctx, User{Kind: Operator, Email: email, Role: role}, password)
}

// CreateSellerUser makes an account of a seller's user; an empty password
// makes one up and returns it.
func (a *Accounts) CreateSellerUser(ctx context.Context, sellerID uuid.UUID, email string, role Role, password string) (NewAccount, error) {
	return a.create(ctx, User{Kind: SellerUser, Email: email, Role: role, SellerID: &sellerID}, password)
}

// create makes an account of u's kind, role and seller under a new id.
func (a *Accounts) create(ctx context.Context, u User, password string) (NewAccount, error) {
	addr, err := mail.ParseAddress(u.Email)
	if err != nil || addr.Address != u.Email {
		return NewAccount{}, fmt.Errorf("%q is %w", u.Email, ErrNotAnEmail)
	}
	u.Email = strings.ToLower(u.Email)
	generated := ""
	if password == "" {
		password = GeneratePassword()
		generated = password
	}
	hash, err := HashPassword(password)
	if err != nil {
		return NewAccount{}, err
	}
	u.ID = uuid.Must(uuid.NewV7())
	secret := NewTOTPSecret()
	err = a.Store.CreateConsoleUser(ctx, dbgen.CreateConsoleUserParams{
		ID: u.ID, Kind: string(u.Kind), SellerID: u.SellerID, Email: u.Email, Role: string(u.Role), PasswordHash: hash,
		TotpSecret: a.TOTPKeys.Seal(secret, u.ID[:]),
	})
	if db.IsUniqueViolation(err, "console_users_email_key") {
		return NewAccount{}, ErrEmailTaken
	}
	if err != nil {
		return NewAccount{}, err
	}
	codes, err := a.NewRecoveryCodes(ctx, u.ID)
	if err != nil {
		return NewAccount{}, err
	}
	return NewAccount{User: u, ProvisioningURI: ProvisioningURI(u.Email, secret), Password: generated, RecoveryCodes: codes}, nil
}

// OperatorAccount is an operator account as `tenure operators list` shows it.
type OperatorAccount struct {
	User
	CreatedAt  time.Time
	DisabledAt *time.Time
}

// ListOperators is every operator account by e-mail address.
func (a *Accounts) ListOperators(ctx context.Context) ([]OperatorAccount, error) {
	rows, err := a.Store.ListConsoleOperators(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]OperatorAccount, len(rows))
	for i, r := range rows {
		out[i] = OperatorAccount{User: userOf(r), CreatedAt: r.CreatedAt, DisabledAt: r.DisabledAt}
	}
	return out, nil
}

// Disable closes an account and ends its sessions; a disabled account
// stays, so the audit log keeps naming it.
func (a *Accounts) Disable(ctx context.Context, email string) error {
	email = strings.ToLower(email)
	return a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		u, err := q.GetConsoleUserByEmail(ctx, email)
		if db.IsNotFound(err) {
			return ErrNoAccount
		}
		if err != nil {
			return err
		}
		if _, err := q.DisableConsoleUser(ctx, email); err != nil {
			return err
		}
		return q.DeleteConsoleUserSessions(ctx, u.ID)
	})
}

func userOf(r dbgen.ConsoleUser) User {
	return User{ID: r.ID, Kind: Kind(r.Kind), Email: r.Email, Role: Role(r.Role), SellerID: r.SellerID}
}
