package checkouttest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/tenurehq/tenure/internal/browsertest"
)

// pageTimeout bounds everything one browser does in a test.
const pageTimeout = 3 * time.Minute

// waitTimeout bounds one wait for the page to show something.
const waitTimeout = 20 * time.Second

// browser is one Chromium, with a fresh profile, showing one tab.
type browser struct {
	t   *testing.T
	ctx context.Context
	// shots is where the test's screenshots go; shot numbers them.
	shots string
	shot  int
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
// policy violations; its screenshots go to checkout/<test> of the
// artifacts.
func newBrowser(t *testing.T, v viewport) *browser {
	t.Helper()
	ctx := browsertest.Start(t, pageTimeout, v)
	b := &browser{t: t, ctx: ctx, shots: browsertest.Artifacts(t, "checkout")}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspRecorder}); err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.screenshot("failure")
		b.t.Fatal(err)
	}
}

// eval runs JavaScript in the page and decodes its value.
func eval[T any](b *browser, expression string, opts ...chromedp.EvaluateOption) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expression, opts...))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expression, err)
	}
	return v
}

// open loads a page.
func (b *browser) open(url string) {
	b.t.Helper()
	b.do(chromedp.Navigate(url))
}

// location is the page's address.
func (b *browser) location() string {
	b.t.Helper()
	return eval[string](b, "window.location.href")
}

// waitHeading waits until the main heading contains want and the page is
// not busy, and returns the heading.
func (b *browser) waitHeading(want string) string {
	b.t.Helper()
	return b.waitFor(fmt.Sprintf("heading %q", want), func() (string, bool) {
		h := eval[string](b, `(() => { const main = document.querySelector('main'); const h = main && main.querySelector('h1');
			return h && main.getAttribute('aria-busy') !== 'true' ? h.textContent : ''; })()`)
		return h, strings.Contains(h, want)
	})
}

// waitText waits until the element sel holds text containing want.
func (b *browser) waitText(sel, want string) string {
	b.t.Helper()
	return b.waitFor(fmt.Sprintf("%s to say %q", sel, want), func() (string, bool) {
		text := eval[string](b, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.textContent : ''; })()`, sel))
		return text, strings.Contains(text, want)
	})
}

// waitFor polls check until it holds; on timeout the test fails with what
// it saw last and a screenshot.
func (b *browser) waitFor(what string, check func() (string, bool)) string {
	b.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	var last string
	for {
		seen, ok := check()
		if ok {
			return seen
		}
		last = seen
		if time.Now().After(deadline) {
			b.screenshot("timeout")
			b.t.Fatalf("waited %s for %s; last saw %q", waitTimeout, what, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// screenshot saves the whole page as NN-name.png.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	b.shot++
	file := filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.shot, name))
	if err := os.WriteFile(file, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// cspViolations are the policy violations the page reported since it loaded.
func (b *browser) cspViolations() []string {
	b.t.Helper()
	return eval[[]string](b, "window.__cspViolations || []")
}

// check looks at the screen as it is: a screenshot, nothing wider than
// the window (on a 360 px phone too), no policy violation, and no serious
// or critical axe-core finding.
func (b *browser) check(name string) {
	b.t.Helper()
	b.screenshot(name)
	if wide := eval[string](b, `document.documentElement.scrollWidth > window.innerWidth ? document.documentElement.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window' : ''`); wide != "" {
		b.t.Errorf("%s: the page is %s", name, wide)
	}
	if v := b.cspViolations(); len(v) > 0 {
		b.t.Errorf("%s: Content-Security-Policy violations: %v", name, v)
	}
	b.axe(name)
}
