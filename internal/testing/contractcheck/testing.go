package contractcheck

import (
	"bytes"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// shared is the checker of a test binary, loaded by the first test that
// needs it.
var shared struct {
	once    sync.Once
	checker *Checker
	err     error
}

// Shared returns the test binary's checker. When the published contract is
// not beside the checkout it says so once, and responses are checked
// against seller.yaml alone.
func Shared(t testing.TB) *Checker {
	t.Helper()
	shared.once.Do(func() {
		root, err := testenv.RepoRoot()
		if err != nil {
			shared.err = err
			return
		}
		reference := ReferencePath(root)
		shared.checker, shared.err = New(reference)
		if shared.err == nil && !shared.checker.Published() {
			t.Logf("the published contract is not at %s (set TENURE_REFERENCE_CONTRACT): responses are checked against seller.yaml and customer.yaml only", reference)
		}
	})
	if shared.err != nil {
		t.Fatalf("loading the contracts for the response check: %v", shared.err)
	}
	return shared.checker
}

// Verify fails the test when a response is outside its contract.
func (c *Checker) Verify(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	if err := c.Check(req, status, header, body); err != nil {
		t.Errorf("response outside the contract: %v", err)
	}
}

// Transport wraps base (nil: http.DefaultTransport) so that every response
// it carries is verified, failing t when one is outside its contract.
func Transport(t testing.TB, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return verifyingTransport{t: t, base: base, checker: Shared(t)}
}

type verifyingTransport struct {
	t       testing.TB
	base    http.RoundTripper
	checker *Checker
}

func (v verifyingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := v.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	v.checker.Verify(v.t, req, resp.StatusCode, resp.Header, body)
	return resp, nil
}
