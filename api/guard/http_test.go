package guard_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func TestHealthAndReadiness(t *testing.T) {
	h := apitest.New(t)
	if resp := h.Do(t, http.MethodGet, "/healthz", "", nil); resp.Status != http.StatusOK {
		t.Errorf("healthz: %d %s", resp.Status, resp.Body)
	}
	resp := h.Do(t, http.MethodGet, "/readyz", "", nil)
	var ready map[string]string
	resp.Decode(t, &ready)
	if resp.Status != http.StatusOK || ready["postgres"] != "ok" || ready["temporal"] != "ok" {
		t.Errorf("readyz: %d %v", resp.Status, ready)
	}

	h.Store.Pool.Close()
	resp = h.Do(t, http.MethodGet, "/readyz", "", nil)
	resp.Decode(t, &ready)
	if resp.Status != http.StatusServiceUnavailable || ready["postgres"] != "unreachable" || ready["temporal"] != "ok" {
		t.Errorf("readyz without PostgreSQL: %d %v", resp.Status, ready)
	}
}

func TestContractIsServed(t *testing.T) {
	h := apitest.New(t)
	resp := h.Do(t, http.MethodGet, "/openapi/seller.yaml", "", nil)
	if resp.Status != http.StatusOK || string(resp.Body) != string(openapi.Seller) {
		t.Errorf("got %d, %d bytes", resp.Status, len(resp.Body))
	}
}

func TestRequestIDs(t *testing.T) {
	h := apitest.New(t)
	resp := h.Do(t, http.MethodGet, "/healthz", "", nil)
	if resp.Header.Get("X-Request-Id") == "" {
		t.Error("every response carries a request id")
	}
	req := apitest.NewRequest(http.MethodGet, "/v1/shipping-method")
	req.Header.Set("X-Request-Id", "caller-chosen-42")
	resp = h.Send(t, req)
	if got := resp.Header.Get("X-Request-Id"); got != "caller-chosen-42" {
		t.Errorf("a caller's request id is kept, got %q", got)
	}

	s := h.Seller(t)
	req = apitest.NewRequest(http.MethodGet, "/v1/no-such-route")
	req.Header.Set("Authorization", "Bearer "+h.Token(t, s, "client"))
	resp = h.Send(t, req)
	e := resp.APIError(t)
	if resp.Status != http.StatusNotFound || e["name"] != "not_found" || e["id"] != resp.Header.Get("X-Request-Id") {
		t.Errorf("an error carries the request id: %d %v", resp.Status, e)
	}
}

func TestOversizedBody(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.HTTP.BodyLimit = 2048 })
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	req, _ := http.NewRequest(http.MethodPost, h.Serve(t)+"/v1/shipping-method/method",
		strings.NewReader(`{"seller_shipping_method_reference":"`+strings.Repeat("x", 4096)+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	httpResp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer httpResp.Body.Close()
	raw, _ := io.ReadAll(httpResp.Body)
	resp := apitest.Response{Status: httpResp.StatusCode, Header: httpResp.Header, Body: raw}
	if resp.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	if e := resp.APIError(t); e["name"] != "request_too_large" {
		t.Errorf("got %v", e)
	}
	rows, _ := h.Store.ListShippingMethods(t.Context(), apitest.ListAll(s))
	if len(rows) != 0 {
		t.Errorf("an oversized request wrote %d rows", len(rows))
	}
}

func TestFailuresDoNotLeakInternals(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	h.Store.Pool.Close() // every query now fails inside pgx
	h.BrokenOnPurpose = true
	resp := h.Do(t, http.MethodGet, "/v1/shipping-method", token, nil)
	if resp.Status != http.StatusInternalServerError {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	e := resp.APIError(t)
	if e["fault"] != true || e["name"] != "fault" {
		t.Errorf("got %v", e)
	}
	for _, leak := range []string{"pool", "pgx", "closed", "SELECT", "sql", ".go:"} {
		if strings.Contains(strings.ToLower(string(resp.Body)), strings.ToLower(leak)) {
			t.Errorf("the response leaks %q: %s", leak, resp.Body)
		}
	}
}
