package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// ErrSignCountRegressed refuses a passkey whose signature counter did
// not grow: a sign that the passkey was copied, or its answer replayed.
var ErrSignCountRegressed = fmt.Errorf("%w: the passkey's signature counter did not grow", ErrSignInRefused)

// BeginPasskeySignIn is the options (JSON, for navigator.credentials.get)
// of a sign-in with a passkey. No account is named: the browser offers
// the passkeys it has for the console, and the one chosen names its
// account.
func (a *Accounts) BeginPasskeySignIn(ctx context.Context) ([]byte, error) {
	assertion, session, err := a.RelyingParty.web.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return nil, err
	}
	if err := a.keepCeremony(ctx, "sign_in", nil, session); err != nil {
		return nil, err
	}
	return json.Marshal(assertion)
}

// PasskeySignIn checks the browser's answer (JSON, from
// navigator.credentials.get) to a sign-in challenge and opens a session
// of the passkey's account, throttled and counted like a password's.
// It answers the passkey used, and the account's e-mail address when the
// passkey names one, refused or not, for the audit log.
func (a *Accounts) PasskeySignIn(ctx context.Context, answer []byte, address string) (Session, Passkey, string, error) {
	now := a.Now()
	parsed, err := protocol.ParseCredentialRequestResponseBytes(answer)
	if err != nil {
		if err := a.throttle(ctx, "", address, now); err != nil {
			return Session{}, Passkey{}, "", err
		}
		return Session{}, Passkey{}, "", a.fail(ctx, "", address, now)
	}
	row, err := a.Store.GetConsolePasskey(ctx, parsed.RawID)
	if err != nil && !db.IsNotFound(err) {
		return Session{}, Passkey{}, "", err
	}
	email := row.ConsoleUser.Email
	if err := a.throttle(ctx, email, address, now); err != nil {
		return Session{}, Passkey{}, email, err
	}
	passkey := Passkey{ID: row.ConsolePasskey.ID, Name: row.ConsolePasskey.Name, CreatedAt: row.ConsolePasskey.CreatedAt}
	refused := func(reason error) (Session, Passkey, string, error) {
		if err := a.fail(ctx, email, address, now); !errors.Is(err, ErrSignInRefused) {
			return Session{}, passkey, email, err
		}
		return Session{}, passkey, email, reason
	}
	session, _, err := a.takeCeremony(ctx, "sign_in", parsed.Response.CollectedClientData.Challenge)
	switch {
	case errors.Is(err, ErrCeremonyGone):
		return refused(fmt.Errorf("%w: %v", ErrSignInRefused, err))
	case err != nil:
		return Session{}, passkey, email, err
	case email == "":
		return refused(fmt.Errorf("%w: no account has this passkey", ErrSignInRefused))
	case row.ConsoleUser.DisabledAt != nil:
		return refused(fmt.Errorf("%w: the account is disabled", ErrSignInRefused))
	}
	u := userOf(row.ConsoleUser)
	h := holder{user: u, credentials: []webauthn.Credential{credentialOf(row.ConsolePasskey)}}
	_, cred, err := a.RelyingParty.web.ValidatePasskeyLogin(func(_, _ []byte) (webauthn.User, error) { return h, nil }, session, parsed)
	if err != nil {
		return refused(fmt.Errorf("%w: %v", ErrSignInRefused, err))
	}
	if cred.Authenticator.CloneWarning {
		return refused(ErrSignCountRegressed)
	}
	used, err := a.Store.UseConsolePasskey(ctx, dbgen.UseConsolePasskeyParams{
		SignCount: int64(cred.Authenticator.SignCount), BackupState: cred.Flags.BackupState, UsedAt: &now, ID: cred.ID,
	})
	if err != nil {
		return Session{}, passkey, email, err
	}
	if used == 0 {
		// Another sign-in with the same counter won the race.
		return refused(ErrSignCountRegressed)
	}
	passkey.LastUsedAt = &now
	s, err := a.startSession(ctx, u)
	return s, passkey, email, err
}
