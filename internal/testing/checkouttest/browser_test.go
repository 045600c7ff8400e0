package checkouttest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/tenurehq/tenure/internal/testing/browsertest"
)

// pageTimeout bounds everything one browser does in a test.
const pageTimeout = 3 * time.Minute

// waitTimeout bounds one wait for the page to show something.
const waitTimeout = 20 * time.Second

// browser is one Chromium, with a fresh profile, showing one tab.
type browser struct {
	*browsertest.Page
}

// viewport is the size of the browser's window and the language it asks
// pages in.
type viewport = browsertest.Window

var (
	phoneGerman    = viewport{Width: 360, Height: 780, AcceptLanguage: "de-DE,de;q=0.9,en;q=0.5"}
	desktopEnglish = viewport{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}
	desktopDutch   = viewport{Width: 1280, Height: 900, AcceptLanguage: "nl-NL,nl;q=0.9"}
)

// cspRecorder collects the page's Content-Security-Policy violations, so a
// test can show that the page runs within its own policy.
const cspRecorder = `window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`

// newBrowser starts Chromium (see browsertest.Start) recording the page's
// policy violations; its full-page screenshots go to checkout/<test> of the
// artifacts.
func newBrowser(t *testing.T, v viewport) *browser {
	t.Helper()
	ctx := browsertest.Start(t, pageTimeout, v)
	b := &browser{&browsertest.Page{T: t, Ctx: ctx, Dir: browsertest.Artifacts(t, "checkout"), Wait: waitTimeout, Full: true}}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspRecorder}); err != nil {
		t.Fatal(err)
	}
	return b
}

// eval is browsertest.Eval in b's page, short for the many calls.
func eval[T any](b *browser, expression string, opts ...chromedp.EvaluateOption) T {
	b.T.Helper()
	return browsertest.Eval[T](b.Page, expression, opts...)
}

// location is the page's address.
func (b *browser) location() string {
	b.T.Helper()
	return eval[string](b, "window.location.href")
}

// waitHeading waits until the main heading contains want and the page is
// not busy, and returns the heading.
func (b *browser) waitHeading(want string) string {
	b.T.Helper()
	return b.Poll(fmt.Sprintf("heading %q", want), func() (string, bool) {
		h := eval[string](b, `(() => { const main = document.querySelector('main'); const h = main && main.querySelector('h1');
			return h && main.getAttribute('aria-busy') !== 'true' ? h.textContent : ''; })()`)
		return h, strings.Contains(h, want)
	})
}

// cspViolations are the policy violations the page reported since it loaded.
func (b *browser) cspViolations() []string {
	b.T.Helper()
	return eval[[]string](b, "window.__cspViolations || []")
}

// check looks at the screen as it is: a screenshot, nothing wider than
// the window (on a 360 px phone too), no policy violation, and no serious
// or critical axe-core finding.
func (b *browser) check(name string) {
	b.T.Helper()
	b.Screenshot(name)
	if wide := eval[string](b, `document.documentElement.scrollWidth > window.innerWidth ? document.documentElement.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window' : ''`); wide != "" {
		b.T.Errorf("%s: the page is %s", name, wide)
	}
	if v := b.cspViolations(); len(v) > 0 {
		b.T.Errorf("%s: Content-Security-Policy violations: %v", name, v)
	}
	b.Axe(name)
}
