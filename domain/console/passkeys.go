package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// RelyingParty is the console as WebAuthn knows it: the origin its pages
// are opened at and the domain its passkeys are bound to.
type RelyingParty struct {
	web *webauthn.WebAuthn
}

// ceremonyTTL is how long a browser has to answer a challenge: time to
// find the security key or touch the sensor, not to leave a challenge
// lying around.
const ceremonyTTL = 5 * time.Minute

// NewRelyingParty is the relying party of the console's origin
// ("https://console.example.com", "http://localhost:8080"); its host is
// the passkeys' RP ID. Passkeys are discoverable and verify their user
// (a PIN, a fingerprint), so one replaces both password and TOTP code.
func NewRelyingParty(origin string) (*RelyingParty, error) {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("%q is not an origin", origin)
	}
	required := true
	web, err := webauthn.New(&webauthn.Config{
		RPID: u.Hostname(), RPDisplayName: "Tenure console", RPOrigins: []string{origin},
		AttestationPreference: protocol.PreferNoAttestation,
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			RequireResidentKey: &required, ResidentKey: protocol.ResidentKeyRequirementRequired,
			UserVerification: protocol.VerificationRequired,
		},
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: ceremonyTTL, TimeoutUVD: ceremonyTTL},
			Registration: webauthn.TimeoutConfig{Timeout: ceremonyTTL, TimeoutUVD: ceremonyTTL},
		},
	})
	if err != nil {
		return nil, err
	}
	return &RelyingParty{web: web}, nil
}

// Origin is the origin the console's passkeys work at.
func (rp *RelyingParty) Origin() string { return rp.web.Config.RPOrigins[0] }

// Passkey is a passkey of an account as its owner sees it.
type Passkey struct {
	// ID is the credential id the authenticator chose.
	ID         []byte
	Name       string
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// maxPasskeyName bounds a passkey's name.
const maxPasskeyName = 100

// ErrPasskeyName refuses a passkey without a name or with a long one.
var ErrPasskeyName = fmt.Errorf("name the passkey (at most %d characters), so you know which one to remove later", maxPasskeyName)

// ErrPasskeyRefused is a registration the browser's answer does not
// complete: a stale or used challenge, another origin, a malformed or
// unverified answer, or a passkey registered already.
var ErrPasskeyRefused = errors.New("the passkey could not be registered")

// ErrNoPasskey is a passkey the account does not have.
var ErrNoPasskey = errors.New("no such passkey")

// holder is an account as the WebAuthn library sees it: its user handle
// is the account's id, its name the e-mail address.
type holder struct {
	user        User
	credentials []webauthn.Credential
}

// WebAuthnID is the account's user handle: its id.
func (h holder) WebAuthnID() []byte { return h.user.ID[:] }

// WebAuthnName is the name an authenticator shows for the passkey.
func (h holder) WebAuthnName() string { return h.user.Email }

// WebAuthnDisplayName is the name an authenticator shows for the account.
func (h holder) WebAuthnDisplayName() string { return h.user.Email }

// WebAuthnCredentials are the account's passkeys the ceremony knows.
func (h holder) WebAuthnCredentials() []webauthn.Credential { return h.credentials }

// credentialOf is a stored passkey as the library checks an assertion
// against it.
func credentialOf(p dbgen.ConsolePasskey) webauthn.Credential {
	transports := make([]protocol.AuthenticatorTransport, len(p.Transports))
	for i, t := range p.Transports {
		transports[i] = protocol.AuthenticatorTransport(t)
	}
	return webauthn.Credential{
		ID: p.ID, PublicKey: p.PublicKey, AttestationType: p.AttestationType, Transport: transports,
		Flags: webauthn.CredentialFlags{
			UserPresent: true, UserVerified: p.UserVerified, BackupEligible: p.BackupEligible, BackupState: p.BackupState,
		},
		Authenticator: webauthn.Authenticator{AAGUID: p.Aaguid, SignCount: uint32(p.SignCount)},
	}
}

// Passkeys are an account's passkeys, oldest first.
func (a *Accounts) Passkeys(ctx context.Context, userID uuid.UUID) ([]Passkey, error) {
	rows, err := a.Store.ListConsolePasskeys(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]Passkey, len(rows))
	for i, r := range rows {
		out[i] = Passkey{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt, LastUsedAt: r.LastUsedAt}
	}
	return out, nil
}

// BeginPasskeyRegistration is the options (JSON, for
// navigator.credentials.create) of a new passkey for a signed-in account;
// its challenge is kept until the answer comes or it expires.
func (a *Accounts) BeginPasskeyRegistration(ctx context.Context, u User) ([]byte, error) {
	rows, err := a.Store.ListConsolePasskeys(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	h := holder{user: u}
	for _, r := range rows {
		h.credentials = append(h.credentials, credentialOf(r))
	}
	// Excluding the account's passkeys keeps an authenticator from
	// registering twice.
	creation, session, err := a.RelyingParty.web.BeginRegistration(h,
		webauthn.WithExclusions(webauthn.Credentials(h.credentials).CredentialDescriptors()))
	if err != nil {
		return nil, err
	}
	if err := a.keepCeremony(ctx, "register", &u.ID, session); err != nil {
		return nil, err
	}
	return json.Marshal(creation)
}

// FinishPasskeyRegistration checks the browser's answer (JSON, from
// navigator.credentials.create) to the account's challenge and keeps the
// passkey under a name.
func (a *Accounts) FinishPasskeyRegistration(ctx context.Context, u User, name string, answer []byte) (Passkey, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > maxPasskeyName {
		return Passkey{}, ErrPasskeyName
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(answer)
	if err != nil {
		return Passkey{}, fmt.Errorf("%w: %v", ErrPasskeyRefused, err)
	}
	session, owner, err := a.takeCeremony(ctx, "register", parsed.Response.CollectedClientData.Challenge)
	if err != nil {
		return Passkey{}, err
	}
	if owner == nil || *owner != u.ID {
		return Passkey{}, fmt.Errorf("%w: the challenge is not this account's", ErrPasskeyRefused)
	}
	cred, err := a.RelyingParty.web.CreateCredential(holder{user: u}, session, parsed)
	if err != nil {
		return Passkey{}, fmt.Errorf("%w: %v", ErrPasskeyRefused, err)
	}
	transports := make([]string, len(cred.Transport))
	for i, t := range cred.Transport {
		transports[i] = string(t)
	}
	p := Passkey{ID: cred.ID, Name: name, CreatedAt: a.Now()}
	err = a.Store.CreateConsolePasskey(ctx, dbgen.CreateConsolePasskeyParams{
		ID: cred.ID, UserID: u.ID, Name: name, PublicKey: cred.PublicKey, SignCount: int64(cred.Authenticator.SignCount),
		Transports: transports, Aaguid: cred.Authenticator.AAGUID, AttestationType: cred.AttestationType,
		BackupEligible: cred.Flags.BackupEligible, BackupState: cred.Flags.BackupState, UserVerified: cred.Flags.UserVerified,
		CreatedAt: p.CreatedAt,
	})
	if db.IsUniqueViolation(err, "console_passkeys_pkey") {
		return Passkey{}, fmt.Errorf("%w: it is registered already", ErrPasskeyRefused)
	}
	return p, err
}

// RemovePasskey forgets a passkey of an account; it signs in no more.
func (a *Accounts) RemovePasskey(ctx context.Context, userID uuid.UUID, id []byte) error {
	n, err := a.Store.DeleteConsolePasskey(ctx, dbgen.DeleteConsolePasskeyParams{ID: id, UserID: userID})
	if err == nil && n == 0 {
		return ErrNoPasskey
	}
	return err
}

// keepCeremony stores a ceremony's challenge and state until it expires,
// forgetting the expired ones.
func (a *Accounts) keepCeremony(ctx context.Context, kind string, userID *uuid.UUID, session *webauthn.SessionData) error {
	now := a.Now()
	if err := a.Store.DeleteExpiredConsolePasskeyCeremonies(ctx, now); err != nil {
		return err
	}
	state, err := json.Marshal(session)
	if err != nil {
		return err
	}
	return a.Store.CreateConsolePasskeyCeremony(ctx, dbgen.CreateConsolePasskeyCeremonyParams{
		Challenge: session.Challenge, Kind: kind, UserID: userID, Session: state, ExpiresAt: now.Add(ceremonyTTL),
	})
}

// ErrCeremonyGone is an answer to a challenge that expired, was answered
// already, or was never given.
var ErrCeremonyGone = errors.New("the passkey's challenge expired or was used: start again")

// takeCeremony is the live ceremony of a challenge, which is deleted as
// it is read: an answer is checked once.
func (a *Accounts) takeCeremony(ctx context.Context, kind, challenge string) (webauthn.SessionData, *uuid.UUID, error) {
	row, err := a.Store.TakeConsolePasskeyCeremony(ctx, dbgen.TakeConsolePasskeyCeremonyParams{
		Challenge: challenge, Kind: kind, Now: a.Now(),
	})
	if db.IsNotFound(err) {
		return webauthn.SessionData{}, nil, ErrCeremonyGone
	}
	if err != nil {
		return webauthn.SessionData{}, nil, err
	}
	var session webauthn.SessionData
	if err := json.Unmarshal(row.Session, &session); err != nil {
		return webauthn.SessionData{}, nil, err
	}
	return session, row.UserID, nil
}
