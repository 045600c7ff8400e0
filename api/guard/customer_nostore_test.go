package guard_test

import (
	"net/http"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// Every answer of the Customer-Facing API is no-store: the response check
// of every test (internal/testing/contractcheck) demands it of each answer to an
// operation of customer.yaml, so the bad-input sweep, which derives its
// requests from the contract's operation list, covers every operation and
// refusal. Answers under the base path that no operation gives are checked
// here.
func TestCustomerAnswersOutsideTheOperationsAreNoStore(t *testing.T) {
	h := apitest.New(t)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/customer/no-such-resource"},
		{http.MethodDelete, "/customer/offers/" + apitest.NewID()},
		{http.MethodGet, "/customer/"},
	} {
		resp := h.Do(t, c.method, c.path, "", nil)
		if resp.Status < 400 || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s %s: %d, Cache-Control %q", c.method, c.path, resp.Status, resp.Header.Get("Cache-Control"))
		}
	}
}
