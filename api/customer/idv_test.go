package customer_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// idvFixture is a sandbox served on a real port (the simulated provider
// posts its callback to http.public_url) whose rules require verification
// above 1,000.00.
type idvFixture struct {
	apitest.OfferFixture
	base string
}

func newIDVFixture(t *testing.T, tune ...func(*config.Config)) idvFixture {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	f := apitest.NewOfferFixture(t, append([]func(*config.Config){func(c *config.Config) {
		c.HTTP.PublicURL = base
		c.IDV.AmountThreshold = 100000
	}}, tune...)...)
	go func() { _ = f.Harness.App.Listener(ln) }()
	t.Cleanup(func() { _ = f.Harness.App.ShutdownWithTimeout(5 * time.Second) })
	return idvFixture{OfferFixture: f, base: base}
}

func (f idvFixture) requirement(t *testing.T, o apitest.CustomerOffer, token string) string {
	t.Helper()
	resp := f.Harness.Customer(t, http.MethodGet, "/offers/"+o.ID+"/idv-requirement", token, nil)
	var r struct {
		Result string `json:"result"`
	}
	resp.Decode(t, &r)
	if resp.Status != http.StatusOK {
		t.Fatalf("requirement: %d %s", resp.Status, resp.Body)
	}
	return r.Result
}

func (f idvFixture) startVerification(t *testing.T, o apitest.CustomerOffer, token string) *url.URL {
	t.Helper()
	resp := f.Harness.Customer(t, http.MethodGet, "/offers/"+o.ID+"/id-verification", token, nil)
	var v struct {
		URL string `json:"url"`
	}
	resp.Decode(t, &v)
	link, err := url.Parse(v.URL)
	if resp.Status != http.StatusOK || err != nil {
		t.Fatalf("start verification: %d %s", resp.Status, resp.Body)
	}
	return link
}

// noRedirects is a browser that shows redirects instead of following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// choose submits the simulation page's form as a customer's browser does.
func choose(t *testing.T, link *url.URL, outcome string) *http.Response {
	t.Helper()
	form := url.Values{"outcome": {outcome}}
	for _, k := range []string{"session_id", "return_url", "signature"} {
		form.Set(k, link.Query().Get(k))
	}
	target := link.Scheme + "://" + link.Host + link.Path
	resp, err := noRedirects.PostForm(target, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestIdentityVerificationWithTheSandboxProvider(t *testing.T) {
	f := newIDVFixture(t)
	h := f.Harness
	// Two laptops of 1,500.00 net each: above the rule's 1,000.00.
	o := f.NewCustomerOffer(t, "idv-1")
	token := h.CustomerToken(t, o, "offer:read")
	if got := f.requirement(t, o, token); got != "required" {
		t.Fatalf("an offer above the threshold: %s", got)
	}
	cheap := f.NewCustomerOffer(t, "idv-cheap", func(p map[string]any) {
		p["lines"] = []map[string]any{{"title": "USB-C cable", "quantity": 1, "seller_product_reference": apitest.Ref("sku", "cable"),
			"price": map[string]any{"currency": "EUR", "net": 1500, "gross": 1785}}}
	})
	if got := f.requirement(t, cheap, h.CustomerToken(t, cheap, "offer:read")); got != "not_required" {
		t.Errorf("an offer below the threshold: %s", got)
	}

	link := f.startVerification(t, o, token)
	if again := f.startVerification(t, o, token); again.String() != link.String() {
		t.Errorf("asking again while the session is open opened another: %s, then %s", link, again)
	}
	if link.Scheme+"://"+link.Host+link.Path != f.base+"/simulations/identity-verification" {
		t.Errorf("the sandbox sends the customer to its simulation: %s", link)
	}
	back, _ := url.Parse(link.Query().Get("return_url"))
	if back.Path != "/checkout/offers/"+o.ID || back.Query().Get("idv_session") != link.Query().Get("session_id") || back.Query().Has("token") {
		t.Errorf("the return URL leads to the checkout without the shared token: %s", back)
	}
	if got := f.requirement(t, o, token); got != "pending" {
		t.Errorf("after starting: %s", got)
	}

	page, err := http.Get(link.String())
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(page.Body)
	page.Body.Close()
	for _, want := range []string{`lang="en"`, "simulation", `value="verified"`, ">Verify<", ">Fail<", `<main>`} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if page.StatusCode != http.StatusOK || !strings.Contains(page.Header.Get("Content-Security-Policy"), "default-src 'none'") ||
		page.Header.Get("Referrer-Policy") != "no-referrer" || bytes.Contains(html, []byte("<script")) ||
		bytes.Contains(html, []byte("<link")) || bytes.Contains(html, []byte("src=")) {
		t.Errorf("page: %d %v", page.StatusCode, page.Header)
	}

	resp := choose(t, link, "failed")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != back.String() {
		t.Fatalf("fail: %d to %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := f.requirement(t, o, token); got != "failed" {
		t.Errorf("after failing: %s", got)
	}
	again := f.startVerification(t, o, token)
	if again.Query().Get("session_id") == link.Query().Get("session_id") {
		t.Errorf("after the failure, asking again answers the failed session %s", link)
	}
	if resp := choose(t, again, "verified"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("verify: %d", resp.StatusCode)
	}
	if got := f.requirement(t, o, token); got != "verified" {
		t.Errorf("after verifying: %s", got)
	}
	if resp := choose(t, again, "failed"); resp.StatusCode != http.StatusBadGateway {
		t.Errorf("the other result for a decided session is refused by the callback: %d", resp.StatusCode)
	}
	if got := f.requirement(t, o, token); got != "verified" {
		t.Errorf("a refused result changes nothing: %s", got)
	}

	tampered := *again
	q := tampered.Query()
	q.Set("return_url", "https://evil.example/")
	tampered.RawQuery = q.Encode()
	for _, l := range []*url.URL{&tampered} {
		page, err := http.Get(l.String())
		if err != nil {
			t.Fatal(err)
		}
		page.Body.Close()
		if page.StatusCode != http.StatusBadRequest {
			t.Errorf("a tampered link: %d", page.StatusCode)
		}
		if resp := choose(t, l, "verified"); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("a tampered form: %d", resp.StatusCode)
		}
	}

	// A voided offer's customer verifies nothing: the void revoked the
	// customer's token.
	if resp := h.Do(t, http.MethodPost, "/v1/offers/"+o.ID+"/void", f.Token, map[string]any{}); resp.Status != http.StatusOK {
		t.Fatalf("void: %d %s", resp.Status, resp.Body)
	}
	resp2 := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/id-verification", token, nil)
	if resp2.Status != http.StatusUnauthorized || !strings.Contains(string(resp2.Body), "revoked") {
		t.Errorf("verification of a voided offer: %d %s", resp2.Status, resp2.Body)
	}
}

// A provider's callbacks are trusted only when signed over the body with
// the provider secret, recently.
func TestIdentityVerificationCallback(t *testing.T) {
	f := newIDVFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "callback-1")
	token := h.CustomerToken(t, o, "offer:read")
	session := f.startVerification(t, o, token).Query().Get("session_id")
	provider := idv.NewProvider("simulation", "", links.DeriveKey(h.Config.Links.SigningKey, "tenure sandbox identity verification"), time.Minute)
	other := idv.NewProvider("other", "", strings.Repeat("o", 32), time.Minute)

	post := func(body string, signature string) apitest.Response {
		t.Helper()
		req := httptest.NewRequest(http.MethodPost, "/customer/idv/callback", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if signature != "" {
			req.Header.Set("Tenure-Signature", signature)
		}
		return h.Send(t, req)
	}
	verdict := `{"session_id":"` + session + `","result":"verified","provider_reference":"p-1"}`
	now := time.Now()
	for name, c := range map[string]struct {
		body, signature string
		status          int
	}{
		"unsigned":          {verdict, "", http.StatusUnauthorized},
		"other secret":      {verdict, other.SignCallback([]byte(verdict), now), http.StatusUnauthorized},
		"stale":             {verdict, provider.SignCallback([]byte(verdict), now.Add(-time.Hour)), http.StatusUnauthorized},
		"signed other body": {verdict, provider.SignCallback([]byte(`{"session_id":"x","result":"failed"}`), now), http.StatusUnauthorized},
		"unknown session":   {`{"session_id":"` + apitest.NewID() + `","result":"verified"}`, "", http.StatusNotFound},
		"not a session id":  {`{"session_id":"nope","result":"verified"}`, "", http.StatusNotFound},
		"unknown result":    {`{"session_id":"` + session + `","result":"maybe"}`, "", http.StatusBadRequest},
		"malformed":         {`{"session_id":`, "", http.StatusBadRequest},
	} {
		sig := c.signature
		if sig == "" && c.status != http.StatusUnauthorized {
			sig = provider.SignCallback([]byte(c.body), now)
		}
		resp := post(c.body, sig)
		if resp.Status != c.status {
			t.Errorf("%s: want %d, got %d %s", name, c.status, resp.Status, resp.Body)
		}
	}
	if got := f.requirement(t, o, token); got != "pending" {
		t.Errorf("refused callbacks change nothing: %s", got)
	}
	if resp := post(verdict, provider.SignCallback([]byte(verdict), now)); resp.Status != http.StatusNoContent {
		t.Fatalf("verdict: %d %s", resp.Status, resp.Body)
	}
	if resp := post(verdict, provider.SignCallback([]byte(verdict), now)); resp.Status != http.StatusNoContent {
		t.Errorf("a provider retrying the same verdict: %d %s", resp.Status, resp.Body)
	}
	failed := strings.Replace(verdict, "verified", "failed", 1)
	if resp := post(failed, provider.SignCallback([]byte(failed), now)); resp.Status != http.StatusConflict || resp.ErrorName(t) != "Conflict" {
		t.Errorf("the other verdict: %d %s", resp.Status, resp.Body)
	}
	if got := f.requirement(t, o, token); got != "verified" {
		t.Errorf("recorded: %s", got)
	}
}

// Production has no simulation: without a configured provider the
// verification answers 501 and the callback trusts nobody.
func TestIdentityVerificationWithoutProvider(t *testing.T) {
	f := apitest.NewOfferFixture(t, func(c *config.Config) { c.Environment = config.Production })
	h := f.Harness
	o := f.NewCustomerOffer(t, "noprovider-1", apitest.WithoutSublines)
	token := h.CustomerToken(t, o, "offer:read")
	resp := h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/id-verification", token, nil)
	if resp.Status != http.StatusNotImplemented || !strings.Contains(string(resp.Body), "idv.provider.url") {
		t.Errorf("verification without a provider: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodPost, "/idv/callback", "", map[string]any{"session_id": apitest.NewID(), "result": "verified"})
	if resp.Status != http.StatusUnauthorized {
		t.Errorf("callback without a provider: %d %s", resp.Status, resp.Body)
	}
	if resp := h.Do(t, http.MethodGet, "/simulations/identity-verification", "", nil); resp.Status != http.StatusNotFound {
		t.Errorf("production serves no simulation: %d", resp.Status)
	}
}

// A configured provider receives Tenure's signed link at its own URL.
func TestIdentityVerificationWithAConfiguredProvider(t *testing.T) {
	secret := strings.Repeat("p", 40)
	f := newIDVFixture(t, func(c *config.Config) {
		c.Environment = config.Production
		c.IDV.Provider.URL = "https://idv.example/start?tenant=shop"
		c.IDV.Provider.Secret = secret
	})
	o := f.NewCustomerOffer(t, "provider-1", apitest.WithoutSublines)
	link := f.startVerification(t, o, f.Harness.CustomerToken(t, o, "offer:read"))
	q := link.Query()
	if link.Host != "idv.example" || q.Get("tenant") != "shop" {
		t.Errorf("link %s", link)
	}
	provider := idv.NewProvider("idv.example", "", secret, time.Minute)
	if err := provider.VerifyLink(q.Get("session_id"), q.Get("return_url"), q.Get("signature")); err != nil {
		t.Errorf("the provider checks Tenure's link with the shared secret: %v", err)
	}
	verdict := []byte(`{"session_id":"` + q.Get("session_id") + `","result":"failed","reason":"document expired"}`)
	req := jsonRequest(t, http.MethodPost, "/customer/idv/callback", json.RawMessage(verdict))
	req.Header.Set("Tenure-Signature", provider.SignCallback(verdict, time.Now()))
	if resp := f.Harness.Send(t, req); resp.Status != http.StatusNoContent {
		t.Errorf("the provider's verdict: %d %s", resp.Status, resp.Body)
	}
	if resp := f.Harness.Do(t, http.MethodGet, "/simulations/identity-verification", "", nil); resp.Status != http.StatusNotFound {
		t.Errorf("a configured provider replaces the simulation: %d", resp.Status)
	}
}

// The sandbox provider's form refuses what its two buttons cannot send,
// and the verification stays pending.
func TestSandboxProviderRefusesAnUnknownOutcome(t *testing.T) {
	f := newIDVFixture(t)
	o := f.NewCustomerOffer(t, "idv-outcome")
	token := f.Harness.CustomerToken(t, o, "offer:read")
	link := f.startVerification(t, o, token)
	for _, outcome := range []string{"", "maybe", "VERIFIED", strings.Repeat("v", 300)} {
		if resp := choose(t, link, outcome); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("outcome %.20q: %d", outcome, resp.StatusCode)
		}
	}
	if got := f.requirement(t, o, token); got != "pending" {
		t.Errorf("after refused outcomes: %s", got)
	}
}

// Concurrent requests for the verification link answer one session.
func TestIdentityVerificationLinkUnderConcurrentRequests(t *testing.T) {
	f := newIDVFixture(t)
	o := f.NewCustomerOffer(t, "idv-concurrent")
	token := f.Harness.CustomerToken(t, o, "offer:read")
	const callers = 8
	links := make([]string, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			resp := f.Harness.Customer(t, http.MethodGet, "/offers/"+o.ID+"/id-verification", token, nil)
			var v struct {
				URL string `json:"url"`
			}
			if resp.Status != http.StatusOK || json.Unmarshal(resp.Body, &v) != nil || v.URL == "" {
				t.Errorf("caller %d: %d %s", i, resp.Status, resp.Body)
			}
			links[i] = v.URL
		})
	}
	wg.Wait()
	for i, l := range links {
		if l != links[0] {
			t.Errorf("caller %d got %s, caller 0 %s", i, l, links[0])
		}
	}
	if n := f.Harness.Count(t, "SELECT count(*) FROM idv_sessions WHERE offer_id = $1", o.ID); n != 1 {
		t.Errorf("%d concurrent requests opened %d sessions", callers, n)
	}
}
