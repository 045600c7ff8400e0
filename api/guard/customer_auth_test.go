package guard_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// customerOperation is one operation of customer.yaml as the tests walk it.
type customerOperation struct {
	id, method, path string
	op               *openapi3.Operation
	// scopes the bearer token needs; bearer is set when one is accepted.
	scopes []string
	bearer bool
	// optionalBearer: the shared token may be sent instead.
	optionalBearer bool
	// sharedToken: the operation takes the shared token (query token).
	sharedToken, signed, public bool
}

func (o customerOperation) String() string { return o.method + " " + o.path }

// customerOperations lists every operation of the Customer-Facing contract,
// so that operations added to it are covered by the walks below.
func customerOperations(t *testing.T) []customerOperation {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(openapi.Customer)
	if err != nil {
		t.Fatal(err)
	}
	var ops []customerOperation
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			c := customerOperation{id: op.OperationID, method: method, path: path, op: op}
			if op.Security != nil {
				for _, req := range *op.Security {
					if len(req) == 0 {
						c.optionalBearer = true
					}
					if scopes, ok := req["OAuth2Service_header_Authorization"]; ok {
						c.bearer, c.scopes = true, scopes
					}
					_, signed := req["IdvProviderSignature"]
					c.signed = c.signed || signed
				}
			}
			for _, p := range op.Parameters {
				c.sharedToken = c.sharedToken || (p.Value.In == "query" && p.Value.Name == "token")
			}
			c.public, _ = op.Extensions["x-tenure-public"].(bool)
			ops = append(ops, c)
		}
	}
	slices.SortFunc(ops, func(a, b customerOperation) int { return strings.Compare(a.String(), b.String()) })
	if len(ops) != 21 {
		t.Fatalf("customer.yaml lists %d operations, want the spec's 18, the provider callback and the payment method's two", len(ops))
	}
	return ops
}

func (o customerOperation) target(offerID string) string {
	return "/customer" + strings.ReplaceAll(o.path, "{id}", offerID)
}

func TestCustomerContractIsServed(t *testing.T) {
	h := apitest.New(t)
	resp := h.Do(t, http.MethodGet, "/openapi/customer.yaml", "", nil)
	if resp.Status != http.StatusOK || string(resp.Body) != string(openapi.Customer) {
		t.Errorf("got %d, %d bytes", resp.Status, len(resp.Body))
	}
}

// Seller tokens open nothing of the Customer-Facing API, customer tokens
// nothing of the Seller API, and a token without an operation's scope gets
// 403 InvalidScopes as a JSON string.
func TestCustomerAndSellerTokensStayApart(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "apart-1")
	customerToken := h.CustomerToken(t, o, "")

	for _, op := range customerOperations(t) {
		if !op.bearer {
			continue
		}
		resp := h.Do(t, op.method, op.target(o.ID), f.Token, nil)
		var msg string
		if resp.Status != http.StatusUnauthorized || json.Unmarshal(resp.Body, &msg) != nil || !strings.HasPrefix(msg, "Unauthorized") {
			t.Errorf("%s with a seller token: %d %s", op, resp.Status, resp.Body)
		}
		// A token that has every scope but the one this operation needs.
		var others []string
		for _, s := range auth.CustomerScopes {
			if !slices.Contains(op.scopes, s) {
				others = append(others, s)
			}
		}
		narrow := h.CustomerToken(t, o, strings.Join(others, " "))
		resp = h.Do(t, op.method, op.target(o.ID), narrow, nil)
		if resp.Status != http.StatusForbidden || json.Unmarshal(resp.Body, &msg) != nil || !strings.HasPrefix(msg, "InvalidScopes") {
			t.Errorf("%s without %v: %d %s", op, op.scopes, resp.Status, resp.Body)
		}
	}
	for _, r := range contractRequests(t) {
		resp := h.Do(t, r[0], r[1], customerToken, nil)
		if resp.Status != http.StatusUnauthorized {
			t.Errorf("%s %s with a customer token: %d %s", r[0], r[1], resp.Status, resp.Body)
		}
	}
}

func TestCustomerErrorsInTheirOwnWords(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "words-1")
	token := h.CustomerToken(t, o, "")

	resp := h.Customer(t, http.MethodGet, "/no-such-route", "", nil)
	if resp.Status != http.StatusNotFound || resp.ErrorName(t) != "NotFound" {
		t.Errorf("unknown route: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodGet, "/branding/offers/"+uuid.NewString(), token, nil)
	if resp.Status != http.StatusNotFound || resp.ErrorName(t) != "NotFound" {
		t.Errorf("another offer: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodGet, "/branding/offers/"+o.ID+"/anonymized", "", nil)
	if resp.Status != http.StatusBadRequest || resp.ErrorName(t) != "BadRequest" || !strings.Contains(string(resp.Body), "token") {
		t.Errorf("missing shared token: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodGet, "/branding/offers/"+o.ID+"/anonymized?token=1.abc", "", nil)
	if resp.Status != http.StatusBadRequest || resp.ErrorName(t) != "InvalidToken" {
		t.Errorf("wrong shared token: %d %s", resp.Status, resp.Body)
	}
	resp = h.Customer(t, http.MethodPut, "/offers/"+o.ID+"/accept", token, map[string]any{"last_updated_at": "2001-02-03T04:05:06Z"})
	if resp.Status != http.StatusUnprocessableEntity || resp.ErrorName(t) != "OutOfDate" {
		t.Errorf("a stale acceptance: %d %s", resp.Status, resp.Body)
	}
	expired, _, _ := auth.NewOfferTokens(h.Config.Auth.SigningKey, time.Hour).Issue(uuid.MustParse(o.ID), f.Seller.Seller.ID, auth.CustomerScopes, time.Now().Add(time.Second))
	time.Sleep(1100 * time.Millisecond)
	resp = h.Customer(t, http.MethodGet, "/branding/offers/"+o.ID, expired, nil)
	if resp.Status != http.StatusUnauthorized || !strings.Contains(string(resp.Body), "expired") ||
		!strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("an expired customer token: %d %s", resp.Status, resp.Body)
	}
}
