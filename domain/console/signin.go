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
	return a.signInWithPassword(ctx, email, password, address, func(row dbgen.ConsoleUser, now time.Time) (bool, error) {
		secret, err := a.TOTPKeys.Open(row.TotpSecret, row.ID[:])
		if err != nil {
			return false, err
		}
		step, ok := MatchTOTP(secret, strings.TrimSpace(code), now)
		if !ok {
			return false, nil
		}
		used, err := a.Store.UseConsoleTOTPStep(ctx, dbgen.UseConsoleTOTPStepParams{ID: row.ID, Step: step})
		return used == 1, err
	})
}

// SignInWithRecoveryCode is SignIn with one of the account's recovery
// codes in place of the TOTP code, for an account whose authenticator
// app is lost; the code is spent.
func (a *Accounts) SignInWithRecoveryCode(ctx context.Context, email, password, code, address string) (Session, error) {
	return a.signInWithPassword(ctx, email, password, address, func(row dbgen.ConsoleUser, _ time.Time) (bool, error) {
		return a.useRecoveryCode(ctx, row.ID, code)
	})
}

// signInWithPassword checks an e-mail address and password, then the
// account's second factor with second, and opens a session; throttled,
// and each failure counted.
func (a *Accounts) signInWithPassword(ctx context.Context, email, password, address string,
	second func(dbgen.ConsoleUser, time.Time) (bool, error)) (Session, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	now := a.Now()
	if err := a.throttle(ctx, email, address, now); err != nil {
		return Session{}, err
	}
	u, ok, err := a.verify(ctx, email, password, now, second)
	if err != nil {
		return Session{}, err
	}
	if !ok {
		return Session{}, a.fail(ctx, email, address, now)
	}
	return a.startSession(ctx, u)
}

// throttle refuses a sign-in of an account or from an address that
// failed too often within the window.
func (a *Accounts) throttle(ctx context.Context, email, address string, now time.Time) error {
	counts, err := a.Store.CountConsoleSignInFailures(ctx, dbgen.CountConsoleSignInFailuresParams{
		Email: email, Address: address, Since: now.Add(-ThrottleWindow),
	})
	if err != nil {
		return err
	}
	if counts.ByAccount >= maxFailuresAccount || counts.ByAddress >= maxFailuresAddress {
		return ErrThrottled
	}
	return nil
}

// fail counts a failed sign-in against its account and address and
// answers ErrSignInRefused.
func (a *Accounts) fail(ctx context.Context, email, address string, now time.Time) error {
	if err := a.Store.DeleteOldConsoleSignInFailures(ctx, now.Add(-ThrottleWindow)); err != nil {
		return err
	}
	if err := a.Store.RecordConsoleSignInFailure(ctx, dbgen.RecordConsoleSignInFailureParams{
		Email: email, Address: address, FailedAt: now,
	}); err != nil {
		return err
	}
	return ErrSignInRefused
}

// verify checks the password of an enabled account, then its second
// factor. An unknown address still costs a hash, so the answer's time
// does not tell whether the account exists.
func (a *Accounts) verify(ctx context.Context, email, password string, now time.Time,
	second func(dbgen.ConsoleUser, time.Time) (bool, error)) (User, bool, error) {
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
	ok, err := second(row, now)
	if err != nil || !ok {
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
