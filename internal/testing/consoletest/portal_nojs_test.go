package consoletest

import (
	"bytes"
	"html"
	"image/png"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/console"
)

// formClient is a browser without JavaScript: it sends the console's
// forms as they are and follows nothing by itself.
type formClient struct {
	t      *testing.T
	base   string
	cookie string
	csrf   string
}

var csrfField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

func (f *formClient) do(method, path string, form url.Values) (*http.Response, string) {
	f.t.Helper()
	var body io.Reader
	if form != nil {
		if f.csrf != "" {
			form.Set("csrf_token", f.csrf)
		}
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(f.t.Context(), method, f.base+path, body)
	if err != nil {
		f.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	req.Header.Set("Accept-Language", "en")
	if f.cookie != "" {
		req.Header.Set("Cookie", f.cookie)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	if m := csrfField.FindSubmatch(raw); m != nil {
		f.csrf = string(m[1])
	}
	return resp, string(raw)
}

// signIn signs a seller user in with the sign-in form.
func (f *formClient) signIn(email, password string, secret []byte) {
	f.t.Helper()
	resp, _ := f.do(http.MethodPost, "/console/sign-in", url.Values{
		"email": {email}, "password": {password}, "code": {totpNow(secret)},
	})
	if resp.StatusCode != http.StatusSeeOther {
		f.t.Fatalf("signing in: %d", resp.StatusCode)
	}
	for _, c := range resp.Cookies() {
		if strings.HasPrefix(c.Name, "__Host-") {
			f.cookie = c.Name + "=" + c.Value
		}
	}
}

// addButton finds the value of a search result's add button.
var addButton = regexp.MustCompile(`name="add" value="([^"]+)"`)

// Without JavaScript the builder works with its buttons: the search is
// sent with the form, a result added, the offer created and its QR code
// served as a PNG; another seller's user finds neither the offer nor its
// QR code, and a form without the contract's required values creates
// nothing.
func TestOfferBuilderWorksWithoutJavaScript(t *testing.T) {
	s := newStack(t)
	password, secret := newSellerUser(t, s.svc, s.sellerID, "nojs@musterhandel.example", console.Agent)
	f := &formClient{t: t, base: s.url}
	f.signIn("nojs@musterhandel.example", password, secret)

	// The builder's page gives the form its CSRF token.
	f.do(http.MethodGet, "/console/portal/offers/new", nil)
	form := url.Values{"q": {"server"}, "action": {"search"}, "channel": {"telesales"}, "valid_days": {"7"},
		"reference": {"nojs-" + uuid.NewString()[:8]}, "agent_name": {"No Script"}, "agent_phone": {"+49 30 1"}}
	resp, page := f.do(http.MethodPost, "/console/portal/offers/new", maps.Clone(form))
	m := addButton.FindStringSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("searching without JavaScript: %d, no product to add\n%.2000s", resp.StatusCode, page)
	}
	add := maps.Clone(form)
	add.Del("action")
	add.Set("add", html.UnescapeString(m[1]))
	_, page = f.do(http.MethodPost, "/console/portal/offers/new", add)
	if !strings.Contains(page, `name="line_reference" value="server"`) || !strings.Contains(page, "36 months") {
		t.Fatalf("the added line or its prices are missing\n%.3000s", page)
	}

	// Nothing created without the customer the contract needs (an e-mail
	// address that is one).
	create := maps.Clone(form)
	create.Set("action", "create")
	for k, v := range map[string]string{"line_source": "sku", "line_reference": "server", "line_title": "Server", "line_quantity": "1",
		"line_price": "5000.00", "line_currency": "EUR", "company": "Kunde ohne Skript GmbH", "full_name": "Nora Skript", "email": "nora"} {
		create.Set(k, v)
	}
	resp, page = f.do(http.MethodPost, "/console/portal/offers/new", maps.Clone(create))
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(page, `id="email-problem"`) {
		t.Fatalf("a wrong e-mail address: %d\n%.3000s", resp.StatusCode, page)
	}
	if _, err := s.svc.Offers.GetByReference(t.Context(), s.sellerID, form.Get("reference")); err == nil {
		t.Error("a refused form created an offer")
	}

	create.Set("email", "nora@kunde.example")
	resp, _ = f.do(http.MethodPost, "/console/portal/offers/new", create)
	where := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(where, "/console/portal/offers/") {
		t.Fatalf("creating the offer: %d to %q", resp.StatusCode, where)
	}
	offerPath := strings.TrimSuffix(where, "?done=created")
	resp, page = f.do(http.MethodGet, where, nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "/checkout/offers/") {
		t.Fatalf("the offer's page: %d\n%.2000s", resp.StatusCode, page)
	}
	resp, raw := f.do(http.MethodGet, offerPath+"/qr.png", nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("the QR code: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if img, err := png.Decode(bytes.NewReader([]byte(raw))); err != nil || img.Bounds().Dx() < 200 {
		t.Errorf("the QR code is no PNG large enough to scan: %v", err)
	}

	other, err := auth.CreateSeller(t.Context(), s.svc.Offers.Store, "Someone Else GmbH", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	strangerPassword, strangerSecret := newSellerUser(t, s.svc, other.Seller.ID, "else@someone.example", console.Admin)
	stranger := &formClient{t: t, base: s.url}
	stranger.signIn("else@someone.example", strangerPassword, strangerSecret)
	for _, path := range []string{offerPath, offerPath + "/qr.png"} {
		if resp, _ := stranger.do(http.MethodGet, path, nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("another seller's admin opens %s: %d, want 404", path, resp.StatusCode)
		}
	}
}
