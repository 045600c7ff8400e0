package contractcheck

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// checkCase is a response and what the checker must say of it: outside
// names part of the error it reports, "" that it is inside its contract.
type checkCase struct {
	name, method, path string
	status             int
	header             http.Header
	body               string
	outside            string
}

var (
	errorObject = `{"name":"bad_request","id":"1","message":"m","temporary":false,"timeout":false,"fault":false}`
	goa         = http.Header{"Content-Type": {errorMediaType}}
	plainJSON   = http.Header{"Content-Type": {"application/json"}}
)

func TestCheckerTellsResponsesOutsideTheContract(t *testing.T) {
	c := newChecker(t)
	if !c.Published() {
		root, _ := testenv.RepoRoot()
		t.Skipf("the published contract is not at %s (set TENURE_REFERENCE_CONTRACT)", ReferencePath(root))
	}
	checkAll(t, c, []checkCase{
		{"a listed refusal", http.MethodPost, "/v1/shipment", 400, goa, errorObject, ""},
		{"a status the operation does not list", http.MethodPost, "/v1/shipment", 422, goa, errorObject, "does not list"},
		{"a fault", http.MethodGet, "/v1/shipping-method", 500, goa, errorObject, "does not list"},
		{"an error object lacking fields", http.MethodPost, "/v1/shipment", 400, goa, `{"name":"bad_request"}`, "outside the published contract"},
		{"400 where the contract lists no client error", http.MethodPost, "/v1/catalog/check-supported", 400, goa, errorObject, ""},
		{"400 where the contract lists 422", http.MethodGet, "/v1/catalog/products_paginated", 400, goa, errorObject, "does not list"},
		{"a protocol refusal any operation may answer", http.MethodGet, "/v1/catalog/products_paginated", 431, goa, errorObject, ""},
		{"a protocol refusal without the error object", http.MethodGet, "/v1/orders", 429, http.Header{"Content-Type": {"text/plain"}}, "slow down", "Content-Type"},
		{"an extension of Tenure", http.MethodGet, "/v1/webhook-endpoints/x", 404, goa, errorObject, ""},
		{"an extension's unlisted status", http.MethodGet, "/v1/webhook-endpoints", 404, goa, errorObject, "seller.yaml does not list"},
		{"a path no operation has", http.MethodGet, "/healthz", 200, nil, "", ""},
	})
}

// The Customer-Facing API is checked against customer.yaml, under the base
// path its servers[0].url names, with or without the published contract.
func TestCheckerTellsCustomerResponsesOutsideTheirContract(t *testing.T) {
	const requirement = "/customer/offers/x/idv-requirement"
	goa, plainJSON := uncached(goa), uncached(plainJSON)
	checkAll(t, newChecker(t), []checkCase{
		{"a listed refusal", http.MethodGet, requirement, 404, goa, errorObject, ""},
		{"a listed answer", http.MethodGet, requirement, 200, plainJSON, `{"result":"not_required"}`, ""},
		{"an unlisted status", http.MethodGet, requirement, 422, goa, errorObject, "customer.yaml does not list"},
		{"an answer outside its schema", http.MethodGet, requirement, 200, plainJSON, `{"result":"maybe"}`, "outside the customer.yaml"},
		{"a protocol refusal", http.MethodGet, requirement, 413, goa, errorObject, ""},
		{"a listed rate limit", http.MethodGet, requirement, 429, goa, errorObject, ""},
		{"a rate limit outside its schema", http.MethodGet, requirement, 429, goa, `{"name":"x"}`, "outside the customer.yaml"},
		{"a protocol refusal without the error object", http.MethodGet, requirement, 413, goa, `{"name":"x"}`, "without the error object"},
		{"a path outside the base path", http.MethodGet, "/offers/x/idv-requirement", 500, goa, errorObject, ""},
		{"an answer a cache may keep", http.MethodGet, requirement, 200, http.Header{"Content-Type": {"application/json"}}, `{"result":"not_required"}`, "no-store"},
		{"a refusal a cache may keep", http.MethodGet, requirement, 404, http.Header{"Content-Type": {errorMediaType}, "Cache-Control": {"max-age=60"}}, errorObject, "no-store"},
	})
}

// uncached is header with Cache-Control: no-store added.
func uncached(header http.Header) http.Header {
	h := header.Clone()
	h.Set("Cache-Control", "no-store")
	return h
}

func newChecker(t *testing.T) *Checker {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(ReferencePath(root))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func checkAll(t *testing.T, c *Checker, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Check(httptest.NewRequest(tc.method, tc.path, nil), tc.status, tc.header, []byte(tc.body))
			switch {
			case tc.outside == "" && err != nil:
				t.Errorf("inside the contract, refused: %v", err)
			case tc.outside != "" && (err == nil || !strings.Contains(err.Error(), tc.outside)):
				t.Errorf("want an error containing %q, got %v", tc.outside, err)
			}
		})
	}
}
