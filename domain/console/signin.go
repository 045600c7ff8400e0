package console

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Sign-in throttling: after this many failures within the window, an
// account, or an address, is refused until the window moved past them.
// An address gets more room than an account, as an office shares one.
const (
	ThrottleWindow     = 15 * time.Minute
	maxFailuresAccount = 5
	maxFailuresAddress = 20
)

// ErrSignInRefused is a wrong e-mail address, password or code, or a
// disabled account; which one is not said, so nobody learns who has an
// account.
var ErrSignInRefused = errors.New("the e-mail address, password or code is not right")

// ErrThrottled refuses a sign-in after too many failures of its account
// or address.
var ErrThrottled = errors.New("too many failed sign-ins: wait 15 minutes, then try again")

// SignIn checks an e-mail address, password and current TOTP code and
// opens a session. Each failure is counted against the account and the
// address it came from.
func (a *Accounts) SignIn(ctx context.Context, email, password, code, address string) (Session, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	now := a.Now()
	counts, err := a.Store.CountConsoleSignInFailures(ctx, dbgen.CountConsoleSignInFailuresParams{
		Email: email, Address: address, Since: now.Add(-ThrottleWindow),
	})
	if err != nil {
		return Session{}, err
	}
	if counts.ByAccount >= maxFailuresAccount || counts.ByAddress >= maxFailuresAddress {
		return Session{}, ErrThrottled
	}
	u, ok, err := a.verify(ctx, email, password, strings.TrimSpace(code), now)
	if err != nil {
		return Session{}, err
	}
	if !ok {
		if err := a.Store.DeleteOldConsoleSignInFailures(ctx, now.Add(-ThrottleWindow)); err != nil {
			return Session{}, err
		}
		if err := a.Store.RecordConsoleSignInFailure(ctx, dbgen.RecordConsoleSignInFailureParams{
			Email: email, Address: address, FailedAt: now,
		}); err != nil {
			return Session{}, err
		}
		return Session{}, ErrSignInRefused
	}
	return a.startSession(ctx, u)
}

// verify checks the password and the code of an enabled account, and
// uses the code's time step up. An unknown address still costs a hash,
// so the answer's time does not tell whether the account exists.
func (a *Accounts) verify(ctx context.Context, email, password, code string, now time.Time) (User, bool, error) {
	row, err := a.Store.GetConsoleUserByEmail(ctx, email)
	if db.IsNotFound(err) {
		_, _ = VerifyPassword(decoyHash, password)
		return User{}, false, nil
	}
	if err != nil {
		return User{}, false, err
	}
	match, err := VerifyPassword(row.PasswordHash, password)
	if err != nil || !match || row.DisabledAt != nil {
		return User{}, false, err
	}
	secret, err := a.TOTPKeys.Open(row.TotpSecret, row.ID[:])
	if err != nil {
		return User{}, false, err
	}
	step, ok := MatchTOTP(secret, code, now)
	if !ok {
		return User{}, false, nil
	}
	used, err := a.Store.UseConsoleTOTPStep(ctx, dbgen.UseConsoleTOTPStepParams{ID: row.ID, Step: step})
	if err != nil || used == 0 {
		return User{}, false, err
	}
	return userOf(row), true, nil
}

// decoyHash is verified against for an unknown e-mail address.
var decoyHash = func() string {
	h, err := HashPassword("decoy-password-for-unknown-accounts")
	if err != nil {
		panic(err)
	}
	return h
}()
