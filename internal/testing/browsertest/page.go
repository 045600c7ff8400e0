package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Page drives the tab of Start for a test: what the browser cannot do fails
// the test, with a screenshot of the page as it was.
type Page struct {
	// T is the test the page belongs to.
	T *testing.T
	// Ctx is the tab's context, from Start.
	Ctx context.Context
	// Dir is the folder of the screenshots, from Artifacts.
	Dir string
	// Wait bounds one wait for the page to show something.
	Wait time.Duration
	// Full makes screenshots of the whole page rather than of the window.
	Full bool
	// OnTimeout, when set, runs as a wait gives up, before the test fails,
	// so a test can add what it knows of the page.
	OnTimeout func()

	// shot numbers the screenshots in the order they were taken.
	shot int
}

// Do runs actions in the tab and fails the test if one fails.
func (p *Page) Do(actions ...chromedp.Action[chromedp.Void]) {
	p.T.Helper()
	if err := chromedp.Do(p.Ctx, actions...); err != nil {
		p.Screenshot("failure")
		p.T.Fatal(err)
	}
}

// Open loads the page at url.
func (p *Page) Open(url string) {
	p.T.Helper()
	p.Do(chromedp.Navigate(url))
}

// Click clicks the element sel once the page has settled and sel is
// visible. Until a page has loaded (its deferred scripts run) and htmx has
// swapped in and settled an answer, a script may still move the element
// (the console's Account page reveals its passkey form and pushes what is
// below it down), and a click aimed at where it was lands elsewhere.
func (p *Page) Click(sel string) {
	p.T.Helper()
	p.Poll("the page to settle before clicking "+sel, func() (string, bool) {
		state := Eval[string](p, settledState)
		return state, state == "settled"
	})
	if err := chromedp.Do(p.Ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		p.Screenshot("failure")
		p.T.Fatalf("clicking %s: %v", sel, err)
	}
}

// Eval runs JavaScript in p's page and decodes its value; a generic
// function, as a method cannot have a type parameter.
func Eval[T any](p *Page, expression string, opts ...chromedp.EvaluateOption) T {
	p.T.Helper()
	deadline := time.Now().Add(p.Wait)
	for {
		v, err := chromedp.Run(p.Ctx, chromedp.Evaluate[T](expression, opts...))
		if err == nil {
			return v
		}
		// A page that navigates (a redirect to another offer, a form
		// sent) drops the evaluation under way; the next page answers.
		if !navigating(err) || time.Now().After(deadline) {
			p.T.Fatalf("evaluating %s: %v", expression, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// settledState says "settled" when the page has loaded and no element
// waits for, swaps in or settles an htmx answer, and otherwise what is
// under way.
const settledState = `(() => {
	if (document.readyState !== 'complete') return 'loading: ' + document.readyState;
	const busy = document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling');
	return busy ? 'htmx busy on ' + busy.tagName : 'settled';
})()`

// navigating reports whether an evaluation failed only because the page
// was being replaced by another.
func navigating(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "navigated or closed") || strings.Contains(msg, "context was destroyed") ||
		strings.Contains(msg, "Cannot find context")
}

// WaitText waits until the element sel holds text containing want, and
// returns the text.
func (p *Page) WaitText(sel, want string) string {
	p.T.Helper()
	return p.Poll(fmt.Sprintf("%s to say %q", sel, want), func() (string, bool) {
		text := Eval[string](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.textContent : ''; })()`, sel))
		return text, strings.Contains(text, want)
	})
}

// Poll calls check until it holds and returns what check saw; after p.Wait
// the test fails with what check saw last and a screenshot.
func (p *Page) Poll(what string, check func() (string, bool)) string {
	p.T.Helper()
	deadline := time.Now().Add(p.Wait)
	for {
		seen, ok := check()
		if ok {
			return seen
		}
		if time.Now().After(deadline) {
			p.Screenshot("timeout")
			if p.OnTimeout != nil {
				p.OnTimeout()
			}
			p.T.Fatalf("waited %s for %s; last saw %.500q", p.Wait, what, seen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Screenshot saves the page (see Full) as NN-name.png in Dir.
func (p *Page) Screenshot(name string) {
	p.T.Helper()
	capture := chromedp.CaptureScreenshot()
	if p.Full {
		capture = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(p.Ctx, capture)
	if err != nil {
		// Not fatal: a screenshot is often taken as the test fails, and
		// the reason it fails must still be reported.
		p.T.Errorf("screenshot %s: %v", name, err)
		return
	}
	p.shot++
	if err := os.WriteFile(filepath.Join(p.Dir, fmt.Sprintf("%02d-%s.png", p.shot, name)), png, 0o644); err != nil {
		p.T.Fatal(err)
	}
}
