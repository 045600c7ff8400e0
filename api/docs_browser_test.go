package api_test

import (
	"fmt"
	"net/http"
	"net/url"
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
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/internal/testing/browsertest"
)

// TestDocsRenderBothContractsInChromium loads /docs in a real headless
// Chromium from a Tenure listening on 127.0.0.1: the Seller API's page
// shows every operation of seller.yaml, one opens with its responses, the
// header's link leads to the Customer-Facing API's page, which shows every
// operation of customer.yaml; the page writes no error to the console and
// asks nothing of another origin.
func TestDocsRenderBothContractsInChromium(t *testing.T) {
	h := apitest.New(t)
	b := newDocsBrowser(t, h.Serve(t))

	b.Open(b.base + "/docs")
	b.waitOperations(operationIDs(openapi.Seller))
	if got := browsertest.Eval[string](b.Page, `location.pathname`); got != "/docs/seller" {
		t.Errorf("/docs shows %s, want /docs/seller", got)
	}
	b.Screenshot("seller")
	b.Click(`#operations-offers-createOffer button.opblock-summary-control`)
	b.WaitText(`#operations-offers-createOffer .responses-wrapper`, "Responses")
	b.Screenshot("seller-createOffer")

	b.Click(`nav a[href="/docs/customer"]`)
	b.waitOperations(operationIDs(openapi.Customer))
	if got := browsertest.Eval[string](b.Page, `document.querySelector('nav a[aria-current="page"]').textContent`); got != "Customer-Facing API" {
		t.Errorf("the customer page marks %q as the current API", got)
	}
	browsertest.Eval[string](b.Page, `document.querySelector('#operations-offers-showOffer').scrollIntoView(), ''`)
	b.Screenshot("customer")
	b.checkQuiet()
}

// TestDocsTryItOutCallsThisTenure authorizes the Seller API's page with a
// seller's client id and secret, then runs listShippingMethods with "Try
// it out": the page gets its token from this server's token endpoint and
// the seller's shipping method from this server, although the contract
// names the server of `tenure dev` (http://127.0.0.1:8080), which the
// page's policy would not let it reach.
func TestDocsTryItOutCallsThisTenure(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	if r := h.Do(t, http.MethodPost, "/v1/shipping-method/method", h.Token(t, s, "client"),
		map[string]any{"seller_shipping_method_reference": "docs-courier", "name": "Docs Courier"}); r.Status != http.StatusCreated {
		t.Fatalf("creating a shipping method: %d %s", r.Status, r.Body)
	}
	b := newDocsBrowser(t, h.Serve(t))
	b.Open(b.base + "/docs/seller")
	b.WaitText(`.servers select`, "This Tenure")
	b.Click(`.btn.authorize`)
	if err := chromedp.Do(b.Ctx,
		chromedp.SendKeys(chromedp.CSS(`#client_id_clientCredentials`), s.Credentials.ClientID),
		chromedp.SendKeys(chromedp.CSS(`#client_secret_clientCredentials`), s.Credentials.ClientSecret),
	); err != nil {
		t.Fatal(err)
	}
	b.Click(`.auth-btn-wrapper .authorize`)
	b.WaitText(`.auth-btn-wrapper`, "Logout")
	b.Click(`.auth-btn-wrapper .btn-done`)

	const operation = `#operations-shipping-methods-listShippingMethods`
	b.Click(operation + ` button.opblock-summary-control`)
	b.Click(operation + ` .try-out__btn`)
	b.Click(operation + ` .execute`)
	b.WaitText(operation+` .live-responses-table tbody .response-col_status`, "200")
	b.WaitText(operation+` .live-responses-table`, `"seller_shipping_method_reference": "docs-courier"`)
	browsertest.Eval[string](b.Page, `document.querySelector('`+operation+` .live-responses-table').scrollIntoView(), ''`)
	b.Screenshot("listShippingMethods")
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
	*browsertest.Page
	base string

	mu            sync.Mutex
	consoleErrors []string
	requests      []string
}

// newDocsBrowser starts Chromium (see browsertest.Start); its window
// screenshots go to docs/<test> of the artifacts, and a wait that times out
// also reports the console's errors and the requests so far.
func newDocsBrowser(t *testing.T, base string) *docsBrowser {
	t.Helper()
	b := &docsBrowser{base: base}
	b.Page = &browsertest.Page{
		T: t, Dir: browsertest.Artifacts(t, "docs"), Wait: 30 * time.Second, OnTimeout: b.checkQuiet,
		Ctx: browsertest.Start(t, 3*time.Minute, browsertest.Window{Width: 1280, Height: 900, AcceptLanguage: "en-GB,en;q=0.9"}),
	}
	// The listener runs on the tab's reading loop: an event that came
	// before a command's answer is recorded when the command returns.
	if err := chromedp.Listen(b.Ctx, b.record); err != nil {
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

// waitOperations waits until the page shows exactly the operations ids
// (Swagger UI lists an operation under each of its tags).
func (b *docsBrowser) waitOperations(ids []string) {
	b.T.Helper()
	want := strings.Join(ids, " ")
	b.Poll("operations "+want, func() (string, bool) {
		shown := browsertest.Eval[string](b.Page, `[...new Set([...document.querySelectorAll('.opblock-summary-operation-id')].map((e) => e.textContent.trim()))].sort().join(' ')`)
		return shown, shown == want
	})
}

// checkQuiet wants no console error so far, and every request so far
// for the server's own origin (data: URLs never leave the page).
func (b *docsBrowser) checkQuiet() {
	b.T.Helper()
	origin, err := url.Parse(b.base)
	if err != nil {
		b.T.Fatal(err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.consoleErrors {
		b.T.Errorf("the page wrote an error to the console: %s", e)
	}
	if len(b.requests) == 0 {
		b.T.Error("the browser recorded no request at all")
	}
	for _, raw := range b.requests {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme != "data" && (u.Scheme != origin.Scheme || u.Host != origin.Host) {
			b.T.Errorf("the page asked for %.200s, outside %s", raw, b.base)
		}
	}
	b.T.Logf("%d requests, all for %s or data: URLs", len(b.requests), b.base)
}
