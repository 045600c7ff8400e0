package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/internal/browsertest"
)

// TestDocsRenderBothContractsInChromium loads /docs in a real headless
// Chromium from a Tenure listening on 127.0.0.1: the Seller API's page
// shows every operation of seller.yaml, one opens with its responses, the
// header's link leads to the Customer-Facing API's page, which shows every
// operation of customer.yaml; the page writes no error to the console and
// asks nothing of another origin.
func TestDocsRenderBothContractsInChromium(t *testing.T) {
	h := newHarness(t)
	b := newDocsBrowser(t, h.serve(t))

	b.open("/docs")
	b.waitOperations(operationIDs(openapi.Seller))
	if got := b.eval(`location.pathname`); got != "/docs/seller" {
		t.Errorf("/docs shows %s, want /docs/seller", got)
	}
	b.screenshot("seller")
	b.click(`#operations-offers-createOffer button.opblock-summary-control`)
	b.waitFor(`#operations-offers-createOffer .responses-wrapper`, "Responses")
	b.screenshot("seller-createOffer")

	b.click(`nav a[href="/docs/customer"]`)
	b.waitOperations(operationIDs(openapi.Customer))
	if got := b.eval(`document.querySelector('nav a[aria-current="page"]').textContent`); got != "Customer-Facing API" {
		t.Errorf("the customer page marks %q as the current API", got)
	}
	b.eval(`document.querySelector('#operations-offers-showOffer').scrollIntoView(), ''`)
	b.screenshot("customer")
	b.checkQuiet()
}

// TestDocsTryItOutCallsThisTenure authorizes the Seller API's page with a
// seller's client id and secret, then runs listShippingMethods with "Try
// it out": the page gets its token from this server's token endpoint and
// the seller's shipping method from this server, although the contract
// names the server of `tenure dev` (http://127.0.0.1:8080), which the
// page's policy would not let it reach.
func TestDocsTryItOutCallsThisTenure(t *testing.T) {
	h := newHarness(t)
	s := h.seller(t)
	if r := h.do(t, http.MethodPost, "/v1/shipping-method/method", h.token(t, s, "client"),
		map[string]any{"seller_shipping_method_reference": "docs-courier", "name": "Docs Courier"}); r.status != http.StatusCreated {
		t.Fatalf("creating a shipping method: %d %s", r.status, r.body)
	}
	b := newDocsBrowser(t, h.serve(t))
	b.open("/docs/seller")
	b.waitFor(`.servers select`, "This Tenure")
	b.click(`.btn.authorize`)
	if err := chromedp.Do(b.ctx,
		chromedp.SendKeys(chromedp.CSS(`#client_id_clientCredentials`), s.Credentials.ClientID),
		chromedp.SendKeys(chromedp.CSS(`#client_secret_clientCredentials`), s.Credentials.ClientSecret),
	); err != nil {
		t.Fatal(err)
	}
	b.click(`.auth-btn-wrapper .authorize`)
	b.waitFor(`.auth-btn-wrapper`, "Logout")
	b.click(`.auth-btn-wrapper .btn-done`)

	const operation = `#operations-shipping-methods-listShippingMethods`
	b.click(operation + ` button.opblock-summary-control`)
	b.click(operation + ` .try-out__btn`)
	b.click(operation + ` .execute`)
	b.waitFor(operation+` .live-responses-table tbody .response-col_status`, "200")
	b.waitFor(operation+` .live-responses-table`, `"seller_shipping_method_reference": "docs-courier"`)
	b.eval(`document.querySelector('` + operation + ` .live-responses-table').scrollIntoView(), ''`)
	b.screenshot("listShippingMethods")
	b.checkQuiet()
}

// operationIDs are the operation ids a contract declares, sorted.
func operationIDs(contract []byte) []string {
	var ids []string
	for _, m := range regexp.MustCompile(`(?m)^\s+operationId: (\S+)$`).FindAllSubmatch(contract, -1) {
		ids = append(ids, string(m[1]))
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// docsBrowser is Chromium showing the API reference of a running Tenure,
// with the errors the page wrote to the console and every address it
// asked for.
type docsBrowser struct {
	t           *testing.T
	ctx         context.Context
	base, shots string
	shot        int

	mu            sync.Mutex
	consoleErrors []string
	requests      []string
}

func newDocsBrowser(t *testing.T, base string) *docsBrowser {
	t.Helper()
	b := &docsBrowser{
		t: t, base: base, shots: browsertest.Artifacts(t, "docs"),
		ctx: browsertest.Start(t, 3*time.Minute, browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}),
	}
	// The listener runs on the tab's reading loop: an event that came
	// before a command's answer is recorded when the command returns.
	if err := chromedp.Listen(b.ctx, b.record); err != nil {
		t.Fatal(err)
	}
	return b
}

// record keeps the requests and the console's errors: calls of
// console.error, exceptions nothing caught, and the browser's own errors
// (failed loads, policy violations).
func (b *docsBrowser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, e.Request.URL)
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			b.consoleErrors = append(b.consoleErrors, "console."+string(e.Type)+": "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		text := d.Text
		if d.Exception != nil {
			text += " " + d.Exception.Description
		}
		b.consoleErrors = append(b.consoleErrors, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber, text))
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			b.consoleErrors = append(b.consoleErrors, fmt.Sprintf("%s: %s (%s)", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	}
}

func (b *docsBrowser) open(path string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(b.base+path)); err != nil {
		b.t.Fatal(err)
	}
}

func (b *docsBrowser) click(sel string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		b.screenshot("failure")
		b.t.Fatalf("clicking %s: %v", sel, err)
	}
}

func (b *docsBrowser) eval(expression string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](expression))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expression, err)
	}
	return v
}

// waitOperations waits until the page shows exactly the operations ids
// (Swagger UI lists an operation under each of its tags).
func (b *docsBrowser) waitOperations(ids []string) {
	b.t.Helper()
	want := strings.Join(ids, " ")
	b.poll("operations "+want, func() (string, bool) {
		shown := b.eval(`[...new Set([...document.querySelectorAll('.opblock-summary-operation-id')].map((e) => e.textContent.trim()))].sort().join(' ')`)
		return shown, shown == want
	})
}

// waitFor waits until the element sel holds text containing want.
func (b *docsBrowser) waitFor(sel, want string) {
	b.t.Helper()
	b.poll(fmt.Sprintf("%s to say %q", sel, want), func() (string, bool) {
		text := b.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.textContent : ''; })()`, sel))
		return text, strings.Contains(text, want)
	})
}

// poll checks until check holds; after 30 s the test fails with what it
// saw last and a screenshot.
func (b *docsBrowser) poll(what string, check func() (string, bool)) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		seen, ok := check()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			b.screenshot("timeout")
			b.checkQuiet()
			b.t.Fatalf("waited 30 s for %s; last saw %.500q", what, seen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// screenshot saves the window as NN-name.png.
func (b *docsBrowser) screenshot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	b.shot++
	if err := os.WriteFile(filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.shot, name)), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// checkQuiet wants no console error so far, and every request so far
// for the server's own origin (data: URLs never leave the page).
func (b *docsBrowser) checkQuiet() {
	b.t.Helper()
	origin, err := url.Parse(b.base)
	if err != nil {
		b.t.Fatal(err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.consoleErrors {
		b.t.Errorf("the page wrote an error to the console: %s", e)
	}
	if len(b.requests) == 0 {
		b.t.Error("the browser recorded no request at all")
	}
	for _, raw := range b.requests {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "data" && (u.Scheme != origin.Scheme || u.Host != origin.Host) {
			b.t.Errorf("the page asked for %.200s, outside %s", raw, b.base)
		}
	}
	b.t.Logf("%d requests, all for %s or data: URLs", len(b.requests), b.base)
}
