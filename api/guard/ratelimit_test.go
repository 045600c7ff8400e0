package guard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func TestSellerRateLimit(t *testing.T) {
	// Three requests, then one every 100 s: no test waits that long.
	h := apitest.New(t, func(c *config.Config) { c.RateLimit.Seller = config.BucketConfig{PerSecond: 0.01, Burst: 3} })
	s, other := h.Seller(t), h.Seller(t)
	token := h.Token(t, s, "client")
	for i, remaining := range []int{2, 1, 0} {
		resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("request %d: %d %s", i+1, resp.Status, resp.Body)
		}
		if q := apitest.QuotaHeaders(t, resp); q != [3]int{3, remaining, 100 * (i + 1)} {
			t.Errorf("request %d: limit, remaining, reset are %v", i+1, q)
		}
	}
	resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", token, nil)
	if resp.Status != http.StatusTooManyRequests {
		t.Fatalf("the fourth request: %d %s", resp.Status, resp.Body)
	}
	if e := resp.APIError(t); e["name"] != "TooManyRequests" || !strings.Contains(e["message"].(string), "retry after 100 seconds") {
		t.Errorf("error object %v", e)
	}
	if wait := apitest.RetryAfter(t, resp); wait != 100 {
		t.Errorf("Retry-After %d, want 100", wait)
	}
	if q := apitest.QuotaHeaders(t, resp); q != [3]int{3, 0, 300} {
		t.Errorf("a refused request: limit, remaining, reset are %v", q)
	}
	// A refused write changes nothing.
	resp = h.Do(t, http.MethodPost, "/v1/shipping-method/method", token, map[string]any{"seller_shipping_method_reference": "ups", "name": "UPS"})
	if rows, _ := h.Store.ListShippingMethods(t.Context(), apitest.ListAll(s)); resp.Status != http.StatusTooManyRequests || len(rows) != 0 {
		t.Errorf("a write over the limit: %d, %d rows", resp.Status, len(rows))
	}
	if resp := h.Do(t, http.MethodGet, "/v1/shipping-method?page=0", h.Token(t, other, "client"), nil); resp.Status != http.StatusOK {
		t.Errorf("another seller has its own bucket: %d %s", resp.Status, resp.Body)
	}
	if resp := h.Do(t, http.MethodGet, "/healthz", "", nil); resp.Status != http.StatusOK || resp.Header.Get("RateLimit-Limit") != "" {
		t.Errorf("health checks are not limited: %d %v", resp.Status, resp.Header)
	}
}

func TestAddressRateLimit(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.RateLimit.Address = config.BucketConfig{PerSecond: 0.01, Burst: 2} })
	s := h.Seller(t)
	grant := url.Values{"grant_type": {"client_credentials"}}
	for i, remaining := range []int{1, 0} {
		resp := h.TokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, grant)
		if resp.Status != http.StatusOK || apitest.QuotaHeaders(t, resp)[1] != remaining {
			t.Fatalf("token request %d: %d %v %s", i+1, resp.Status, resp.Header, resp.Body)
		}
	}
	resp := h.TokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, grant)
	if resp.Status != http.StatusTooManyRequests || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("the third token request: %d %v %s", resp.Status, resp.Header, resp.Body)
	}
	var oauth struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	resp.Decode(t, &oauth)
	if oauth.Error != "temporarily_unavailable" || !strings.Contains(oauth.Description, "retry after 100 seconds") || apitest.RetryAfter(t, resp) != 100 {
		t.Errorf("the token endpoint refuses in its own form: %s", resp.Body)
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
		resp := h.Do(t, method, target, "", body)
		if resp.Status != http.StatusTooManyRequests {
			t.Errorf("%s %s: %d %s", method, target, resp.Status, resp.Body)
			continue
		}
		if e := resp.APIError(t); e["name"] != "TooManyRequests" || apitest.RetryAfter(t, resp) != 100 || apitest.QuotaHeaders(t, resp)[1] != 0 {
			t.Errorf("%s %s: %v %v", method, target, e, resp.Header)
		}
	}
	for _, path := range []string{"/healthz", "/readyz", "/openapi/seller.yaml", "/openapi/customer.yaml"} {
		if resp := h.Do(t, http.MethodGet, path, "", nil); resp.Status == http.StatusTooManyRequests {
			t.Errorf("%s is limited", path)
		}
	}
}
