package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
)

// newCustomerFixture is an offer fixture (seller, catalog, worker) on a
// harness tuned for a test.
func newCustomerFixture(t *testing.T, tune ...func(*config.Config)) offerFixture {
	t.Helper()
	h := newHarness(t, tune...)
	h.worker(t)
	s := h.seller(t)
	f := offerFixture{h: h, seller: s, token: h.token(t, s, "client")}
	f.catalog(t)
	return f
}

// customerOffer is an offer as its customer receives it: the id and the
// shared token of its checkout link.
type customerOffer struct {
	id, token string
	view      offerView
}

// newCustomerOffer creates an offer through the Seller API and reads the
// shared token from its checkout_redirect_url.
func (f offerFixture) newCustomerOffer(t *testing.T, reference string, tune ...func(map[string]any)) customerOffer {
	t.Helper()
	o := f.createOffer(t, offerPayload(reference, tune...))
	link, err := url.Parse(o.CheckoutURL)
	if err != nil || link.Query().Get("token") == "" {
		t.Fatalf("checkout link %q carries no token", o.CheckoutURL)
	}
	return customerOffer{id: o.ID, token: link.Query().Get("token"), view: o}
}

// exchangeForm is the token exchange of an offer's shared token.
func exchangeForm(o customerOffer, scope string) url.Values {
	form := url.Values{
		"grant_type":         {"urn:ietf:params:oauth:grant-type:token-exchange"},
		"subject_token":      {o.token},
		"subject_token_type": {"urn:tenure:params:oauth:token-type:offer-link"},
		"audience":           {o.id},
	}
	if scope != "" {
		form.Set("scope", scope)
	}
	return form
}

// exchange sends a token exchange without client credentials, as a
// customer's browser does.
func (h *harness) exchange(t *testing.T, form url.Values) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/oauth2/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return h.send(t, req)
}

// customerToken exchanges an offer's shared token for a bearer token.
func (h *harness) customerToken(t *testing.T, o customerOffer, scope string) string {
	t.Helper()
	resp := h.exchange(t, exchangeForm(o, scope))
	if resp.status != http.StatusOK {
		t.Fatalf("token exchange: %d %s", resp.status, resp.body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	resp.decode(t, &tok)
	return tok.AccessToken
}

// customer calls the Customer-Facing API (path relative to /customer).
func (h *harness) customer(t *testing.T, method, path, token string, body any) response {
	t.Helper()
	return h.do(t, method, "/customer"+path, token, body)
}

// errorName is the name of an error object, checking its shape.
func (r response) errorName(t *testing.T) string {
	t.Helper()
	name, _ := r.apiError(t)["name"].(string)
	return name
}

// jsonRequest is a request with a JSON body.
func jsonRequest(t *testing.T, method, target string, body any) *http.Request {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(method, target, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// newID is an id nothing has.
func newID() string { return uuid.Must(uuid.NewV7()).String() }
