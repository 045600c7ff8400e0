package console_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"

	"github.com/tenurehq/tenure/domain/console"
)

// testOrigin is the console's origin in the domain's tests.
const testOrigin = "http://localhost:8080"

var b64 = base64.RawURLEncoding

// authenticator is a passkey authenticator in software, answering
// ceremonies as a browser with a platform authenticator does: its
// passkey is discoverable, it verifies its user, it counts signatures.
type authenticator struct {
	key     *ecdsa.PrivateKey
	id      []byte
	user    []byte
	counter uint32
	// origin is the origin the browser says the page has.
	origin string
}

func newAuthenticator(t *testing.T) *authenticator {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 32)
	_, _ = rand.Read(id)
	return &authenticator{key: key, id: id, origin: testOrigin}
}

// options reads what a ceremony's options ask.
type options struct {
	PublicKey struct {
		Challenge string `json:"challenge"`
		RP        struct {
			ID string `json:"id"`
		} `json:"rp"`
		RPID string `json:"rpId"`
		User struct {
			ID string `json:"id"`
		} `json:"user"`
		AuthenticatorSelection struct {
			ResidentKey      string `json:"residentKey"`
			UserVerification string `json:"userVerification"`
		} `json:"authenticatorSelection"`
		UserVerification string `json:"userVerification"`
	} `json:"publicKey"`
}

func readOptions(t *testing.T, raw []byte) options {
	t.Helper()
	var o options
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

func (a *authenticator) clientData(kind, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": kind, "challenge": challenge, "origin": a.origin, "crossOrigin": false})
	return b
}

// authData is the authenticator data for an RP ID: user present and
// verified, the counter moved on, and the attested credential when made.
func (a *authenticator) authData(rpID string, attested []byte) []byte {
	a.counter++
	h := sha256.Sum256([]byte(rpID))
	flags := byte(0x01 | 0x04)
	if attested != nil {
		flags |= 0x40
	}
	out := append(h[:], flags)
	out = binary.BigEndian.AppendUint32(out, a.counter)
	return append(out, attested...)
}

// create answers registration options as navigator.credentials.create.
func (a *authenticator) create(t *testing.T, raw []byte) json.RawMessage {
	t.Helper()
	o := readOptions(t, raw)
	if o.PublicKey.AuthenticatorSelection.ResidentKey != "required" || o.PublicKey.AuthenticatorSelection.UserVerification != "required" {
		t.Errorf("registration options ask %+v, want a discoverable passkey verifying its user", o.PublicKey.AuthenticatorSelection)
	}
	a.user, _ = b64.DecodeString(o.PublicKey.User.ID)
	pub, err := a.key.PublicKey.ECDH()
	if err != nil {
		t.Fatal(err)
	}
	point := pub.Bytes() // 0x04 || x || y
	cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: point[1:33], -3: point[33:]})
	if err != nil {
		t.Fatal(err)
	}
	attested := make([]byte, 16) // AAGUID: none
	attested = binary.BigEndian.AppendUint16(attested, uint16(len(a.id)))
	attested = append(append(attested, a.id...), cose...)
	object, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": a.authData(o.PublicKey.RP.ID, attested)})
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(a.id), "rawId": b64.EncodeToString(a.id), "type": "public-key", "clientExtensionResults": map[string]any{},
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(a.clientData("webauthn.create", o.PublicKey.Challenge)),
			"attestationObject": b64.EncodeToString(object), "transports": []string{"internal"},
		},
	})
	return answer
}

// get answers sign-in options as navigator.credentials.get.
func (a *authenticator) get(t *testing.T, raw []byte) []byte {
	t.Helper()
	o := readOptions(t, raw)
	if o.PublicKey.UserVerification != "required" {
		t.Errorf("sign-in options ask user verification %q, want required", o.PublicKey.UserVerification)
	}
	data := a.authData(o.PublicKey.RPID, nil)
	client := a.clientData("webauthn.get", o.PublicKey.Challenge)
	hash := sha256.Sum256(client)
	digest := sha256.Sum256(append(append([]byte{}, data...), hash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	answer, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(a.id), "rawId": b64.EncodeToString(a.id), "type": "public-key", "clientExtensionResults": map[string]any{},
		"response": map[string]any{
			"clientDataJSON": b64.EncodeToString(client), "authenticatorData": b64.EncodeToString(data),
			"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(a.user),
		},
	})
	return answer
}

func TestPasskeyRegistrationAndSignIn(t *testing.T) {
	a, clk := newAccounts(t)
	ctx := t.Context()
	acct, err := a.CreateOperator(ctx, "passkey@example.com", console.Admin, "")
	if err != nil {
		t.Fatal(err)
	}
	dev := newAuthenticator(t)

	raw, err := a.BeginPasskeyRegistration(ctx, acct.User)
	if err != nil {
		t.Fatal(err)
	}
	answer := dev.create(t, raw)
	if _, err := a.FinishPasskeyRegistration(ctx, acct.User, "  ", answer); !errors.Is(err, console.ErrPasskeyName) {
		t.Errorf("a passkey without a name: %v", err)
	}
	other, err := a.CreateOperator(ctx, "other@example.com", console.Reviewer, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.FinishPasskeyRegistration(ctx, other.User, "Laptop", answer); !errors.Is(err, console.ErrPasskeyRefused) {
		t.Errorf("another account's challenge: %v", err)
	}
	// The refused attempt spent the challenge.
	if _, err := a.FinishPasskeyRegistration(ctx, acct.User, "Laptop", answer); !errors.Is(err, console.ErrCeremonyGone) {
		t.Errorf("a spent challenge: %v", err)
	}
	raw, err = a.BeginPasskeyRegistration(ctx, acct.User)
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.FinishPasskeyRegistration(ctx, acct.User, " Laptop ", dev.create(t, raw))
	if err != nil {
		t.Fatal(err)
	}
	keys, err := a.Passkeys(ctx, acct.ID)
	if err != nil || len(keys) != 1 || keys[0].Name != "Laptop" || string(keys[0].ID) != string(dev.id) || keys[0].LastUsedAt != nil {
		t.Fatalf("the account's passkeys: %+v %v (registered %+v)", keys, err, p)
	}

	signIn := func() ([]byte, []byte) {
		t.Helper()
		raw, err := a.BeginPasskeySignIn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return raw, dev.get(t, raw)
	}
	_, answer = signIn()
	s, used, email, err := a.PasskeySignIn(ctx, answer, "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if s.User.ID != acct.ID || s.Token == "" || used.Name != "Laptop" || email != "passkey@example.com" {
		t.Errorf("signed in as %+v with %+v (%s)", s.User, used, email)
	}
	if got, err := a.Session(ctx, s.Token); err != nil || got.User.Email != "passkey@example.com" {
		t.Errorf("the passkey's session: %+v %v", got, err)
	}
	if keys, _ := a.Passkeys(ctx, acct.ID); keys[0].LastUsedAt == nil {
		t.Error("the passkey's use was not recorded")
	}

	// Each of these is refused, and counted against the account.
	refusals := map[string]func() []byte{
		"a replayed answer": func() []byte { return answer },
		"a counter gone back": func() []byte {
			dev.counter = 0
			_, answer := signIn()
			dev.counter = 10
			return answer
		},
		"another origin": func() []byte {
			dev.origin = "https://evil.example"
			defer func() { dev.origin = testOrigin }()
			_, answer := signIn()
			return answer
		},
		"an expired challenge": func() []byte {
			_, answer := signIn()
			clk.now = clk.now.Add(6 * time.Minute)
			return answer
		},
	}
	for name, make := range refusals {
		_, _, email, err := a.PasskeySignIn(ctx, make(), "192.0.2.1")
		if !errors.Is(err, console.ErrSignInRefused) || email != "passkey@example.com" {
			t.Errorf("%s: %v (%s)", name, err, email)
		}
		if name == "a counter gone back" && !errors.Is(err, console.ErrSignCountRegressed) {
			t.Errorf("a counter gone back: %v, want ErrSignCountRegressed", err)
		}
	}
	_, _, _, err = a.PasskeySignIn(ctx, []byte(`{"not":"an answer"}`), "192.0.2.1")
	if !errors.Is(err, console.ErrSignInRefused) {
		t.Errorf("a malformed answer: %v", err)
	}
	// The fifth failure of the account closes it to its passkey too.
	_, _, _, _ = a.PasskeySignIn(ctx, func() []byte {
		dev.origin = "https://evil.example"
		_, a := signIn()
		dev.origin = testOrigin
		return a
	}(), "192.0.2.1")
	if _, _, _, err := a.PasskeySignIn(ctx, func() []byte { _, a := signIn(); return a }(), "198.51.100.1"); !errors.Is(err, console.ErrThrottled) {
		t.Errorf("after five failures: %v, want throttled", err)
	}
	clk.now = clk.now.Add(console.ThrottleWindow)

	// Only its owner removes a passkey; removed, it signs in no more.
	if err := a.RemovePasskey(ctx, other.ID, dev.id); !errors.Is(err, console.ErrNoPasskey) {
		t.Errorf("another account removed the passkey: %v", err)
	}
	if _, _, _, err := a.PasskeySignIn(ctx, func() []byte { _, a := signIn(); return a }(), "192.0.2.1"); err != nil {
		t.Errorf("the passkey after the window: %v", err)
	}
	if err := a.RemovePasskey(ctx, acct.ID, dev.id); err != nil {
		t.Fatal(err)
	}
	if _, _, email, err := a.PasskeySignIn(ctx, func() []byte { _, a := signIn(); return a }(), "192.0.2.1"); !errors.Is(err, console.ErrSignInRefused) || email != "" {
		t.Errorf("a removed passkey: %v (%s)", err, email)
	}
}

// Recovery codes stand in for the TOTP code once each; new codes replace
// the old ones.
func TestRecoveryCodes(t *testing.T) {
	a, _ := newAccounts(t)
	ctx := t.Context()
	acct, err := a.CreateOperator(ctx, "lost-phone@example.com", console.Finance, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(acct.RecoveryCodes) != console.RecoveryCodeCount {
		t.Fatalf("a new account has %d recovery codes", len(acct.RecoveryCodes))
	}
	seen := map[string]bool{}
	for _, code := range acct.RecoveryCodes {
		if len(code) != 19 || strings.Count(code, "-") != 3 || seen[code] {
			t.Errorf("recovery code %q", code)
		}
		seen[code] = true
	}
	code := acct.RecoveryCodes[3]
	if _, err := a.SignInWithRecoveryCode(ctx, acct.Email, "wrong password!", code, "192.0.2.1"); !errors.Is(err, console.ErrSignInRefused) {
		t.Errorf("a recovery code with a wrong password: %v", err)
	}
	typed := strings.ToUpper(strings.ReplaceAll(code, "-", " "))
	s, err := a.SignInWithRecoveryCode(ctx, acct.Email, acct.Password, typed, "192.0.2.1")
	if err != nil || s.User.ID != acct.ID {
		t.Fatalf("signing in with %q: %+v %v", typed, s.User, err)
	}
	if _, err := a.SignInWithRecoveryCode(ctx, acct.Email, acct.Password, code, "192.0.2.1"); !errors.Is(err, console.ErrSignInRefused) {
		t.Errorf("a recovery code used twice: %v", err)
	}
	if left, err := a.RecoveryCodesLeft(ctx, acct.ID); err != nil || left != 9 {
		t.Errorf("codes left: %d %v", left, err)
	}
	fresh, err := a.NewRecoveryCodes(ctx, acct.ID)
	if err != nil || len(fresh) != console.RecoveryCodeCount {
		t.Fatalf("new codes: %v %v", fresh, err)
	}
	if _, err := a.SignInWithRecoveryCode(ctx, acct.Email, acct.Password, acct.RecoveryCodes[0], "192.0.2.1"); !errors.Is(err, console.ErrSignInRefused) {
		t.Errorf("an old code after new ones were made: %v", err)
	}
	if left, _ := a.RecoveryCodesLeft(ctx, acct.ID); left != console.RecoveryCodeCount {
		t.Errorf("codes left after new ones: %d", left)
	}
	if _, err := a.SignInWithRecoveryCode(ctx, acct.Email, acct.Password, fresh[9], "192.0.2.1"); err != nil {
		t.Errorf("a new code: %v", err)
	}
}

// Signing out everywhere ends every session of the account, and only its.
func TestSignOutEverywhere(t *testing.T) {
	a, clk := newAccounts(t)
	ctx := t.Context()
	acct, err := a.CreateOperator(ctx, "everywhere@example.com", console.Admin, "")
	if err != nil {
		t.Fatal(err)
	}
	other, err := a.CreateOperator(ctx, "bystander@example.com", console.Admin, "")
	if err != nil {
		t.Fatal(err)
	}
	var sessions []console.Session
	for range 2 {
		clk.now = clk.now.Add(time.Minute)
		s, err := a.SignIn(ctx, acct.Email, acct.Password, codeOf(t, acct.ProvisioningURI, clk.now), "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, s)
	}
	bystander, err := a.SignIn(ctx, other.Email, other.Password, codeOf(t, other.ProvisioningURI, clk.now), "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SignOutEverywhere(ctx, acct.ID); err != nil {
		t.Fatal(err)
	}
	for i, s := range sessions {
		if _, err := a.Session(ctx, s.Token); !errors.Is(err, console.ErrNoSession) {
			t.Errorf("session %d lives on: %v", i, err)
		}
	}
	if _, err := a.Session(ctx, bystander.Token); err != nil {
		t.Errorf("another account's session ended: %v", err)
	}
}
