package consoletest

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"github.com/tenurehq/tenure/api"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

// passkeyStack is Tenure in production serving the console at
// http://localhost:PORT, the origin its passkeys are bound to
// (console.public_origin): browsers take no IP address as a passkey's
// relying party, and treat localhost as a secure context.
type passkeyStack struct {
	// origin is http://localhost:PORT; loopback is the same server at
	// http://127.0.0.1:PORT.
	origin, loopback string
	svc              *services.Services
}

func newPasskeyStack(t *testing.T) *passkeyStack {
	t.Helper()
	cfg := testenv.Config(t)
	cfg.Environment = config.Production
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	cfg.Console.PublicOrigin = fmt.Sprintf("http://localhost:%d", port)
	store := testenv.Database(t)
	svc := testenv.Services(t, cfg, store, testenv.Temporal(t))
	app, err := api.New(api.Deps{Config: cfg, Services: svc, Tokens: auth.NewTokens(cfg.Auth.SigningKey, cfg.Auth.TokenTTL), Logger: testenv.AppLogger()})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	t.Cleanup(func() { _ = app.ShutdownWithTimeout(5 * time.Second) })
	return &passkeyStack{origin: cfg.Console.PublicOrigin, loopback: fmt.Sprintf("http://127.0.0.1:%d", port), svc: svc}
}

// An operator signs in with password and TOTP code, adds a passkey
// through Chromium's virtual authenticator (CTAP2, internal, discoverable,
// verifying its user), signs out, signs in with the passkey, then with a
// recovery code, makes new codes, removes the passkey and signs out
// everywhere; at 1280 px in English and at 360 px in German.
func TestPasskeysRecoveryCodesAndSigningOutEverywhere(t *testing.T) {
	s := newPasskeyStack(t)
	for _, run := range []struct {
		name   string
		window browsertest.Window
		w      passkeyWords
	}{
		{"desktop English", browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}, passkeyEnglish},
		{"phone German", browsertest.Window{Width: 360, Height: 780, AcceptLanguage: "de-DE,de;q=0.9,en;q=0.5"}, passkeyGerman},
	} {
		t.Run(run.name, func(t *testing.T) { s.passkeyRun(t, run.window, run.w) })
	}
}

// passkeyWords are what the pages say in a language, as the test looks
// for them.
type passkeyWords struct {
	signIn, account, added, signedOut, queue, codesLeft, codesMade, everywhere, elsewhere, passkeyRefused, removed string
}

var (
	passkeyEnglish = passkeyWords{signIn: "Sign in", account: "Account", added: "The passkey was added", signedOut: "You are signed out.",
		queue: "Review queue", codesLeft: "You have 9 unused recovery codes", codesMade: "Here are your new recovery codes",
		everywhere: "You are signed out on every device", elsewhere: "Passkeys work at this address",
		passkeyRefused: "The passkey was not accepted", removed: "The passkey was removed"}
	passkeyGerman = passkeyWords{signIn: "Anmelden", account: "Konto", added: "Der Passkey wurde hinzugefügt", signedOut: "Sie sind abgemeldet.",
		queue: "Prüfungen", codesLeft: "Sie haben 9 unbenutzte Wiederherstellungscodes", codesMade: "Hier sind Ihre neuen Wiederherstellungscodes",
		everywhere: "Sie sind auf allen Geräten abgemeldet", elsewhere: "Passkeys funktionieren unter dieser Adresse",
		passkeyRefused: "Der Passkey wurde nicht angenommen", removed: "Der Passkey wurde entfernt"}
)

func (s *passkeyStack) passkeyRun(t *testing.T, window browsertest.Window, w passkeyWords) {
	email := strings.ReplaceAll(strings.ToLower(t.Name()), "/", "-") + "@example.com"
	email = strings.ReplaceAll(email, " ", "-")
	acct, err := s.svc.Console.Accounts.CreateOperator(t.Context(), email, console.Admin, "")
	if err != nil {
		t.Fatal(err)
	}
	secret := testenv.TOTPSecret(t, acct.ProvisioningURI)

	p := openConsole(t, s.svc, window, "console", tabTimeout, pageTimeout)
	ctx := p.Ctx
	if _, err := chromedp.Call(ctx, webauthn.Enable, webauthn.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	added, err := chromedp.Call(ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
		Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true,
		},
	})
	if err != nil {
		t.Fatal(err)
	}

	// At the loopback address the console works, but passkeys are bound
	// to localhost: the page says where they work.
	p.Open(s.loopback + "/console/sign-in")
	p.WaitText("main .notice", w.elsewhere)
	p.WaitText("main .notice a", s.origin)
	checkScreen(p, "sign-in at 127.0.0.1")
	// Which is so: Chromium refuses an IP address as a passkey's RP ID.
	refusal := browsertest.Eval[string](p, `navigator.credentials.create({publicKey: {
		rp: {id: '127.0.0.1', name: 'probe'}, user: {id: new Uint8Array(16), name: 'probe', displayName: 'probe'},
		challenge: new Uint8Array(32), pubKeyCredParams: [{type: 'public-key', alg: -7}]}})
		.then(() => 'made', (e) => e.name)`, chromedp.EvalAwaitPromise)
	if refusal != "SecurityError" {
		t.Errorf("a passkey for 127.0.0.1: %s, want SecurityError", refusal)
	}

	p.Open(s.origin + "/console/account")
	p.WaitText("h1", w.signIn)
	p.Poll("the passkey button to show", func() (string, bool) {
		return "", browsertest.Eval[bool](p, "!document.querySelector('#passkey-sign-in').hidden")
	})
	checkScreen(p, "sign-in")
	signInAs(p, email, acct.Password, secret)
	p.WaitText("h1", w.account)
	p.WaitText("#codes-left", "10")
	checkScreen(p, "account")

	p.Do(chromedp.SendKeys(chromedp.CSS("#passkey-name"), "Work laptop"))
	p.Click("#passkey-add button[type=submit]")
	p.WaitText("main .notice", w.added)
	p.WaitText("ul.passkeys", "Work laptop")
	checkScreen(p, "passkey added")
	held, err := chromedp.Call(ctx, webauthn.GetCredentials, webauthn.GetCredentialsParams{AuthenticatorID: added.AuthenticatorID})
	if err != nil || len(held.Credentials) != 1 || !held.Credentials[0].IsResidentCredential {
		t.Fatalf("the virtual authenticator holds %+v (%v), want one discoverable passkey", held, err)
	}

	p.Click("header form button[type=submit]")
	p.WaitText("main .notice", w.signedOut)
	p.Click("#passkey-sign-in")
	p.WaitText("h1", w.queue)
	checkScreen(p, "signed in with the passkey")
	p.Open(s.origin + "/console/account")
	p.WaitText("ul.passkeys", "UTC")
	if used := browsertest.Eval[string](p, "document.querySelectorAll('ul.passkeys dd')[1].textContent"); !strings.Contains(used, "UTC") {
		t.Errorf("the passkey's last use: %q", used)
	}

	// A copy of the passkey whose counter is behind is refused.
	p.Click("header form button[type=submit]")
	p.WaitText("main .notice", w.signedOut)
	held, err = chromedp.Call(ctx, webauthn.GetCredentials, webauthn.GetCredentialsParams{AuthenticatorID: added.AuthenticatorID})
	if err != nil || len(held.Credentials) != 1 || held.Credentials[0].SignCount < 1 {
		t.Fatalf("the virtual authenticator holds %+v (%v), want one passkey used", held, err)
	}
	used := held.Credentials[0]
	if _, err := chromedp.Call(ctx, webauthn.RemoveCredential, webauthn.RemoveCredentialParams{
		AuthenticatorID: added.AuthenticatorID, CredentialID: used.CredentialID,
	}); err != nil {
		t.Fatal(err)
	}
	behind := copiedCredential{AuthenticatorID: added.AuthenticatorID, Credential: passkeyCopy{
		CredentialID: used.CredentialID, IsResidentCredential: true, RpID: used.RpID, PrivateKey: used.PrivateKey,
		UserHandle: used.UserHandle, SignCount: 0,
	}}
	if _, err := chromedp.Call(ctx, addCopiedCredential, behind); err != nil {
		t.Fatal(err)
	}
	p.Click("#passkey-sign-in")
	p.WaitText("#passkey-problem", w.passkeyRefused)
	checkScreen(p, "passkey refused")

	// Without the authenticator app: a recovery code in place of the code.
	p.Open(s.origin + "/console/sign-in?next=%2Fconsole%2Faccount")
	sendSignIn(p, email, acct.Password, strings.ToUpper(acct.RecoveryCodes[0]))
	p.WaitText("h1", w.account)
	p.WaitText("#codes-left", w.codesLeft)

	p.Click("form[action$='/recovery-codes'] button")
	p.WaitText("main .notice", w.codesMade)
	codes := browsertest.Eval[[]string](p, "[...document.querySelectorAll('ol.codes li')].map(li => li.textContent)")
	if len(codes) != console.RecoveryCodeCount {
		t.Errorf("new recovery codes shown: %v", codes)
	}
	checkScreen(p, "new recovery codes")

	p.Click("ul.passkeys form button")
	p.WaitText("main .notice", w.removed)
	if n := browsertest.Eval[int](p, "document.querySelectorAll('ul.passkeys li').length"); n != 0 {
		t.Errorf("%d passkeys listed after removing the only one", n)
	}

	p.Click("form[action$='/sign-out-everywhere'] button")
	p.WaitText("main .notice", w.everywhere)
	checkScreen(p, "signed out everywhere")
	p.Open(s.origin + "/console/account")
	p.WaitText("h1", w.signIn)

	// The audit log has every step, the passkey's and the recovery code's
	// sign-ins told apart, and the copy's refusal with its reason.
	entries, err := s.svc.Console.Accounts.AuditLog(t.Context(), "", time.Time{}, [16]byte{})
	if err != nil {
		t.Fatal(err)
	}
	var mine []string
	refused := ""
	for _, e := range entries {
		switch {
		case e.ActorEmail == email && e.Outcome == console.Succeeded:
			mine = append(mine, e.Action+" "+e.Detail)
		case e.ActorEmail == email && e.Action == "sign_in":
			refused = e.Detail
		}
	}
	if !strings.Contains(refused, `passkey "Work laptop"`) || !strings.Contains(refused, "counter did not grow") {
		t.Errorf("the refused sign-in's audit detail: %q", refused)
	}
	want := []string{"sign_out.everywhere ", "passkey.remove ", "recovery_codes.new ", "sign_in recovery code, 9 left", "sign_out ",
		`sign_in passkey "Work laptop"`, "sign_out ", "passkey.add ", "sign_in "}
	if strings.Join(mine, "|") != strings.Join(want, "|") {
		t.Errorf("the audit log, newest first:\n%q\nwant\n%q", mine, want)
	}
}

// addCopiedCredential is WebAuthn.addCredential with only the fields a
// copied passkey needs: cdproto's Credential always sends
// generateCmtgKeyOnNextOperation, which an authenticator without the
// cmtgKey extension refuses.
var addCopiedCredential = cdp.Command[copiedCredential, cdp.Empty]{Method: webauthn.CommandAddCredential}

// copiedCredential are addCopiedCredential's parameters.
type copiedCredential struct {
	AuthenticatorID webauthn.AuthenticatorID `json:"authenticatorId"`
	Credential      passkeyCopy              `json:"credential"`
}

// passkeyCopy is a passkey put back into the virtual authenticator.
type passkeyCopy struct {
	CredentialID         []byte  `json:"credentialId"`
	IsResidentCredential bool    `json:"isResidentCredential"`
	RpID                 string  `json:"rpId"`
	PrivateKey           []byte  `json:"privateKey"`
	UserHandle           []byte  `json:"userHandle"`
	SignCount            float64 `json:"signCount"`
}
