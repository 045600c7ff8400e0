package api_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
)

// quotaHeaders are the rate limit headers of a response, in the order
// limit, remaining, reset.
func quotaHeaders(t *testing.T, r response) [3]int {
	t.Helper()
	var q [3]int
	for i, name := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
		v, err := strconv.Atoi(r.header.Get(name))
		if err != nil {
			t.Fatalf("%s is %q (status %d)", name, r.header.Get(name), r.status)
		}
		q[i] = v
	}
	return q
}

func retryAfter(t *testing.T, r response) int {
	t.Helper()
	v, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || v < 1 {
		t.Fatalf("Retry-After is %q", r.header.Get("Retry-After"))
	}
	return v
}

func TestSellerRateLimit(t *testing.T) {
	// Three requests, then one every 100 s: no test waits that long.
	h := newHarness(t, func(c *config.Config) { c.RateLimit.Seller = config.BucketConfig{PerSecond: 0.01, Burst: 3} })
	s, other := h.seller(t), h.seller(t)
	token := h.token(t, s, "client")
	for i, remaining := range []int{2, 1, 0} {
		resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", token, nil)
		if resp.status != http.StatusOK {
			t.Fatalf("request %d: %d %s", i+1, resp.status, resp.body)
		}
		if q := quotaHeaders(t, resp); q != [3]int{3, remaining, 100 * (i + 1)} {
			t.Errorf("request %d: limit, remaining, reset are %v", i+1, q)
		}
	}
	resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", token, nil)
	if resp.status != http.StatusTooManyRequests {
		t.Fatalf("the fourth request: %d %s", resp.status, resp.body)
	}
	if e := resp.apiError(t); e["name"] != "TooManyRequests" || !strings.Contains(e["message"].(string), "retry after 100 seconds") {
		t.Errorf("error object %v", e)
	}
	if wait := retryAfter(t, resp); wait != 100 {
		t.Errorf("Retry-After %d, want 100", wait)
	}
	if q := quotaHeaders(t, resp); q != [3]int{3, 0, 300} {
		t.Errorf("a refused request: limit, remaining, reset are %v", q)
	}
	// A refused write changes nothing.
	resp = h.do(t, http.MethodPost, "/v1/shipping-method/method", token, map[string]any{"seller_shipping_method_reference": "ups", "name": "UPS"})
	if rows, _ := h.store.ListShippingMethods(t.Context(), listAll(s)); resp.status != http.StatusTooManyRequests || len(rows) != 0 {
		t.Errorf("a write over the limit: %d, %d rows", resp.status, len(rows))
	}
	if resp := h.do(t, http.MethodGet, "/v1/shipping-method?page=0", h.token(t, other, "client"), nil); resp.status != http.StatusOK {
		t.Errorf("another seller has its own bucket: %d %s", resp.status, resp.body)
	}
	if resp := h.do(t, http.MethodGet, "/healthz", "", nil); resp.status != http.StatusOK || resp.header.Get("RateLimit-Limit") != "" {
		t.Errorf("health checks are not limited: %d %v", resp.status, resp.header)
	}
}

func TestAddressRateLimit(t *testing.T) {
	h := newHarness(t, func(c *config.Config) { c.RateLimit.Address = config.BucketConfig{PerSecond: 0.01, Burst: 2} })
	s := h.seller(t)
	grant := url.Values{"grant_type": {"client_credentials"}}
	for i, remaining := range []int{1, 0} {
		resp := h.tokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, grant)
		if resp.status != http.StatusOK || quotaHeaders(t, resp)[1] != remaining {
			t.Fatalf("token request %d: %d %v %s", i+1, resp.status, resp.header, resp.body)
		}
	}
	resp := h.tokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, grant)
	if resp.status != http.StatusTooManyRequests || resp.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("the third token request: %d %v %s", resp.status, resp.header, resp.body)
	}
	var oauth struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	resp.decode(t, &oauth)
	if oauth.Error != "temporarily_unavailable" || !strings.Contains(oauth.Description, "retry after 100 seconds") || retryAfter(t, resp) != 100 {
		t.Errorf("the token endpoint refuses in its own form: %s", resp.body)
	}
	// The other unauthenticated routes, the Customer-Facing API's public
	// operations among them, share the address's bucket and refuse with
	// the contract's error object.
	for _, target := range []string{"/downloads/catalog-imports/x/errors.csv?token=x", "/uploads/catalog-imports/x?token=x", "/customer/crm/contacts"} {
		method, body := http.MethodGet, any(nil)
		switch {
		case strings.HasPrefix(target, "/uploads"):
			method = http.MethodPut
		case strings.HasPrefix(target, "/customer"):
			method, body = http.MethodPost, map[string]any{"properties": map[string]any{"email": "jane@company.example"}}
		}
		resp := h.do(t, method, target, "", body)
		if resp.status != http.StatusTooManyRequests {
			t.Errorf("%s %s: %d %s", method, target, resp.status, resp.body)
			continue
		}
		if e := resp.apiError(t); e["name"] != "TooManyRequests" || retryAfter(t, resp) != 100 || quotaHeaders(t, resp)[1] != 0 {
			t.Errorf("%s %s: %v %v", method, target, e, resp.header)
		}
	}
	for _, path := range []string{"/healthz", "/readyz", "/openapi/seller.yaml", "/openapi/customer.yaml"} {
		if resp := h.do(t, http.MethodGet, path, "", nil); resp.status == http.StatusTooManyRequests {
			t.Errorf("%s is limited", path)
		}
	}
}
