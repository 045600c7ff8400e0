package api_test

import (
	"net/http"
	"testing"
)

// Every answer of the Customer-Facing API is no-store: the response check
// of every test (internal/testing/contractcheck) demands it of each answer to an
// operation of customer.yaml, so the bad-input sweep, which derives its
// requests from the contract's operation list, covers every operation and
// refusal. Answers under the base path that no operation gives are checked
// here.
func TestCustomerAnswersOutsideTheOperationsAreNoStore(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/customer/no-such-resource"},
		{http.MethodDelete, "/customer/offers/" + newID()},
		{http.MethodGet, "/customer/"},
	} {
		resp := h.do(t, c.method, c.path, "", nil)
		if resp.status < 400 || resp.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s %s: %d, Cache-Control %q", c.method, c.path, resp.status, resp.header.Get("Cache-Control"))
		}
	}
}
