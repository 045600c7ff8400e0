package consoletest

import (
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

// The bounds most tests give the browser: the whole tab, and one wait for
// a page to show something.
const (
	tabTimeout  = 3 * time.Minute
	pageTimeout = 20 * time.Second
)

// cspRecorder collects the page's Content-Security-Policy violations.
const cspRecorder = `window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`

// openConsole starts Chromium sized and speaking as w and returns its tab,
// which records every page's Content-Security-Policy violations for
// checkScreen and keeps its full-page screenshots under the artifacts'
// group; as the test ends, svc's audit log must have an entry of every
// changing request the tab sent to the console (expectAudited), so svc's
// database must outlive the tab. timeout bounds the whole tab, wait one
// wait for a page.
func openConsole(t *testing.T, svc *services.Services, w browsertest.Window, group string, timeout, wait time.Duration) *browsertest.Page {
	t.Helper()
	ctx := browsertest.Start(t, timeout, w)
	expectAudited(t, ctx, svc.Console.Accounts)
	p := &browsertest.Page{T: t, Ctx: ctx, Dir: browsertest.Artifacts(t, group), Wait: wait, Full: true}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspRecorder}); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkScreen keeps a screenshot of the page and checks it: axe-clean,
// no Content-Security-Policy violation, htmx loaded (every console page
// is laid out by layout.html, which loads it and boosts the body), no
// wider than the window.
func checkScreen(p *browsertest.Page, screen string) {
	t := p.T
	t.Helper()
	p.Screenshot(screen)
	p.Axe(screen)
	if v := browsertest.Eval[[]string](p, "window.__cspViolations || []"); len(v) > 0 {
		t.Errorf("%s: Content-Security-Policy violations %v", screen, v)
	}
	if !browsertest.Eval[bool](p, "typeof htmx !== 'undefined' && document.body.getAttribute('hx-boost') === 'true'") {
		t.Errorf("%s: htmx did not load", screen)
	}
	if overflow := browsertest.Eval[bool](p, "document.documentElement.scrollWidth > window.innerWidth"); overflow {
		t.Errorf("%s: the page is wider than the window", screen)
	}
}

// sendSignIn types into the sign-in form the page shows and sends it. An
// empty email types none, leaving the address the form holds (a refused
// form keeps it); code is a TOTP code or a recovery code.
func sendSignIn(p *browsertest.Page, email, password, code string) {
	p.T.Helper()
	if email != "" {
		p.Do(chromedp.SendKeys(chromedp.CSS("#email"), email))
	}
	p.Do(
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.SendKeys(chromedp.CSS("#code"), code),
	)
	p.Click("main form button[type=submit]")
}

// signInAs signs in on the sign-in page the browser shows, with the
// account's current TOTP code.
func signInAs(p *browsertest.Page, email, password string, secret []byte) {
	p.T.Helper()
	sendSignIn(p, email, password, totpNow(secret))
}

// totpNow is the code an authenticator app holding secret shows now.
func totpNow(secret []byte) string {
	return console.TOTPCode(secret, console.TOTPStep(time.Now()))
}

// newOperator creates an operator of a role and returns their generated
// password and TOTP secret.
func newOperator(t *testing.T, svc *services.Services, email string, role console.Role) (password string, secret []byte) {
	t.Helper()
	acct, err := svc.Console.Accounts.CreateOperator(t.Context(), email, role, "")
	if err != nil {
		t.Fatal(err)
	}
	return acct.Password, testenv.TOTPSecret(t, acct.ProvisioningURI)
}

// newSellerUser creates a user of a seller with a role and returns their
// generated password and TOTP secret.
func newSellerUser(t *testing.T, svc *services.Services, sellerID uuid.UUID, email string, role console.Role) (password string, secret []byte) {
	t.Helper()
	acct, err := svc.Console.Accounts.CreateSellerUser(t.Context(), sellerID, email, role, "")
	if err != nil {
		t.Fatal(err)
	}
	return acct.Password, testenv.TOTPSecret(t, acct.ProvisioningURI)
}
