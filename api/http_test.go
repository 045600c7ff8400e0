package api_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/config"
)

func TestHealthAndReadiness(t *testing.T) {
	h := newHarness(t)
	if resp := h.do(t, http.MethodGet, "/healthz", "", nil); resp.status != http.StatusOK {
		t.Errorf("healthz: %d %s", resp.status, resp.body)
	}
	resp := h.do(t, http.MethodGet, "/readyz", "", nil)
	var ready map[string]string
	resp.decode(t, &ready)
	if resp.status != http.StatusOK || ready["postgres"] != "ok" || ready["temporal"] != "ok" {
		t.Errorf("readyz: %d %v", resp.status, ready)
	}

	h.store.Pool.Close()
	resp = h.do(t, http.MethodGet, "/readyz", "", nil)
	resp.decode(t, &ready)
	if resp.status != http.StatusServiceUnavailable || ready["postgres"] != "unreachable" || ready["temporal"] != "ok" {
		t.Errorf("readyz without PostgreSQL: %d %v", resp.status, ready)
	}
}

func TestContractIsServed(t *testing.T) {
	h := newHarness(t)
	resp := h.do(t, http.MethodGet, "/openapi/seller.yaml", "", nil)
	if resp.status != http.StatusOK || string(resp.body) != string(openapi.Seller) {
		t.Errorf("got %d, %d bytes", resp.status, len(resp.body))
	}
}

func TestRequestIDs(t *testing.T) {
	h := newHarness(t)
	resp := h.do(t, http.MethodGet, "/healthz", "", nil)
	if resp.header.Get("X-Request-Id") == "" {
		t.Error("every response carries a request id")
	}
	req := newRequest(http.MethodGet, "/v1/shipping-method")
	req.Header.Set("X-Request-Id", "caller-chosen-42")
	resp = h.send(t, req)
	if got := resp.header.Get("X-Request-Id"); got != "caller-chosen-42" {
		t.Errorf("a caller's request id is kept, got %q", got)
	}

	s := h.seller(t)
	req = newRequest(http.MethodGet, "/v1/no-such-route")
	req.Header.Set("Authorization", "Bearer "+h.token(t, s, "client"))
	resp = h.send(t, req)
	e := resp.apiError(t)
	if resp.status != http.StatusNotFound || e["name"] != "not_found" || e["id"] != resp.header.Get("X-Request-Id") {
		t.Errorf("an error carries the request id: %d %v", resp.status, e)
	}
}

func TestOversizedBody(t *testing.T) {
	h := newHarness(t, func(c *config.Config) { c.HTTP.BodyLimit = 2048 })
	s := h.seller(t)
	token := h.token(t, s, "client")
	req, _ := http.NewRequest(http.MethodPost, h.serve(t)+"/v1/shipping-method/method",
		strings.NewReader(`{"seller_shipping_method_reference":"`+strings.Repeat("x", 4096)+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	httpResp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer httpResp.Body.Close()
	raw, _ := io.ReadAll(httpResp.Body)
	resp := response{status: httpResp.StatusCode, header: httpResp.Header, body: raw}
	if resp.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	if e := resp.apiError(t); e["name"] != "request_too_large" {
		t.Errorf("got %v", e)
	}
	rows, _ := h.store.ListShippingMethods(t.Context(), listAll(s))
	if len(rows) != 0 {
		t.Errorf("an oversized request wrote %d rows", len(rows))
	}
}

func TestFailuresDoNotLeakInternals(t *testing.T) {
	h := newHarness(t)
	s := h.seller(t)
	token := h.token(t, s, "client")
	h.store.Pool.Close() // every query now fails inside pgx
	h.brokenOnPurpose = true
	resp := h.do(t, http.MethodGet, "/v1/shipping-method", token, nil)
	if resp.status != http.StatusInternalServerError {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	e := resp.apiError(t)
	if e["fault"] != true || e["name"] != "fault" {
		t.Errorf("got %v", e)
	}
	for _, leak := range []string{"pool", "pgx", "closed", "SELECT", "sql", ".go:"} {
		if strings.Contains(strings.ToLower(string(resp.body)), strings.ToLower(leak)) {
			t.Errorf("the response leaks %q: %s", leak, resp.body)
		}
	}
}
