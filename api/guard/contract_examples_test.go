package guard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

// The ids the contracts' examples name. They stand for records a reader
// has: the test puts its own records' ids in their place.
const (
	exampleOfferID   = "0190f5c2-7a51-7cc4-9d0e-5f3c2b1a4e77"
	exampleLineID    = "0190f5c2-7a60-7d1e-8b3a-6c2d1e0f9a88"
	exampleSessionID = "0190f5c2-7b02-7e4f-9a1b-2c3d4e5f6a7b"
)

// contractExample is the example request body of an operation.
type contractExample struct {
	operationID, method, path string
	body                      any
}

// requestExamples are the examples of an operation's request body: the
// media type's example and examples, and its schema's example.
func requestExamples(doc *openapi3.T) []contractExample {
	var out []contractExample
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			if op.RequestBody == nil {
				continue
			}
			media := op.RequestBody.Value.Content.Get("application/json")
			add := func(body any) {
				out = append(out, contractExample{operationID: op.OperationID, method: method, path: path, body: body})
			}
			if media.Example != nil {
				add(media.Example)
			}
			for _, name := range slices.Sorted(maps.Keys(media.Examples)) {
				add(media.Examples[name].Value.Value)
			}
			if media.Schema.Value.Example != nil {
				add(media.Schema.Value.Example)
			}
		}
	}
	return out
}

// Every request example seller.yaml and customer.yaml give is one the
// server accepts: each is sent, in an order that lets it succeed (the
// Seller API's first, the customer's acceptance last), to a seeded sandbox
// seller's stack, and must be answered with a 2xx. What the test puts in:
// the ids of its records for the examples' ids (exampleOfferID: on the
// Seller API a fresh offer, on the Customer-Facing API the customer's
// offer; exampleLineID: that offer's first line; exampleSessionID: an
// identity verification session of it), the offer's updated_at for
// last_updated_at, the offer createOffer's example made for editOffer's
// path, and the enum's first value for a path parameter with an enum. The
// discount code the customer's examples name is the one createDiscountCode's
// example creates.
func TestContractExamplesAreAccepted(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	run, err := h.Temporal.ExecuteWorkflow(t.Context(), client.StartWorkflowOptions{
		ID: sandbox.WorkflowID(s.Seller.ID), TaskQueue: sandbox.TaskQueue,
	}, sandbox.SeedSeller, sandbox.SeedInput{SellerID: s.Seller.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	f := apitest.OfferFixture{Harness: h, Seller: s, Token: h.Token(t, s, "client")}
	f.Catalog(t)

	seller, err := openapi3.NewLoader().LoadFromData(openapi.Seller)
	if err != nil {
		t.Fatal(err)
	}
	customer, err := openapi3.NewLoader().LoadFromData(openapi.Customer)
	if err != nil {
		t.Fatal(err)
	}
	sellerExamples, customerExamples := requestExamples(seller), requestExamples(customer)
	// The acceptance closes the offer; the verification it may need comes
	// just before it.
	last := map[string]int{"receiveIdvResult": 1, "acceptOffer": 2}
	slices.SortStableFunc(customerExamples, func(a, b contractExample) int { return last[a.operationID] - last[b.operationID] })
	// createOffer's example comes before editOffer's, which edits its offer.
	slices.SortStableFunc(sellerExamples, func(a, b contractExample) int {
		return boolOrder(a.operationID == "editOffer") - boolOrder(b.operationID == "editOffer")
	})
	for _, doc := range []*openapi3.T{seller, customer} {
		checkNoUncheckedExamples(t, doc)
	}

	created := ""
	for _, ex := range sellerExamples {
		target := ex.path
		for _, p := range seller.Paths.Value(ex.path).GetOperation(strings.ToUpper(ex.method)).Parameters {
			if v := p.Value; v.In == openapi3.ParameterInPath {
				value := created
				if enum := v.Schema.Value.Enum; len(enum) > 0 {
					value = enum[0].(string)
				}
				target = strings.ReplaceAll(target, "{"+v.Name+"}", value)
			}
		}
		ids := map[string]string{}
		if strings.Contains(string(mustJSON(ex.body)), exampleOfferID) {
			ids[exampleOfferID] = f.CreateOffer(t, apitest.OfferPayload("example-"+ex.operationID)).ID
		}
		body := substitute(t, ex.body, ids, nil)
		resp := h.Do(t, strings.ToUpper(ex.method), target, f.Token, string(body))
		checkExampleAccepted(t, ex, resp)
		if ex.operationID == "createOffer" {
			var o apitest.OfferView
			resp.Decode(t, &o)
			created = o.ID
		}
	}
	if !slices.ContainsFunc(sellerExamples, func(ex contractExample) bool { return ex.operationID == "createDiscountCode" }) {
		t.Fatal("the customer's examples name the discount code of createDiscountCode's example, which seller.yaml no longer gives")
	}

	o := f.NewCustomerOffer(t, "example-customer", apitest.WithoutSublines)
	token := h.CustomerToken(t, o, "")
	var started struct {
		URL string `json:"url"`
	}
	h.Customer(t, http.MethodGet, "/offers/"+o.ID+"/id-verification", token, nil).Decode(t, &started)
	link, err := url.Parse(started.URL)
	if err != nil || link.Query().Get("session_id") == "" {
		t.Fatalf("identity verification: %q", started.URL)
	}
	ids := map[string]string{exampleOfferID: o.ID, exampleLineID: o.View.Lines[0].ID, exampleSessionID: link.Query().Get("session_id")}
	provider := idv.NewProvider("simulation", "", links.DeriveKey(h.Config.Links.SigningKey, "tenure sandbox identity verification"), time.Minute)
	ops := customerOperations(t)
	for _, ex := range customerExamples {
		op := ops[slices.IndexFunc(ops, func(op customerOperation) bool { return op.id == ex.operationID })]
		body := substitute(t, ex.body, ids, map[string]string{"last_updated_at": offerUpdatedAt(t, h, o.ID)})
		target := op.target(o.ID)
		if op.sharedToken && !op.bearer {
			target += "?token=" + url.QueryEscape(o.Token)
		}
		req := httptest.NewRequest(strings.ToUpper(ex.method), target, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if op.bearer {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if op.signed {
			req.Header.Set("Tenure-Signature", provider.SignCallback(body, time.Now()))
		}
		checkExampleAccepted(t, ex, h.Send(t, req))
	}
	if len(sellerExamples) < 6 || len(customerExamples) < 10 {
		t.Errorf("%d seller and %d customer examples; the contracts give more", len(sellerExamples), len(customerExamples))
	}
}

func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}

// substitute writes an example as JSON with the test's ids in place of the
// example's, and fields set to values by name (at any depth).
func substitute(t *testing.T, example any, ids, fields map[string]string) []byte {
	t.Helper()
	raw, err := json.Marshal(example)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	for from, to := range ids {
		text = strings.ReplaceAll(text, from, to)
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatal(err)
	}
	var set func(any)
	set = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if value, ok := fields[k]; ok {
					v[k] = value
					continue
				}
				set(e)
			}
		case []any:
			for _, e := range v {
				set(e)
			}
		}
	}
	set(v)
	return mustJSON(v)
}

// offerUpdatedAt is an offer's updated_at as its customer reads it.
func offerUpdatedAt(t *testing.T, h *apitest.Harness, id string) string {
	t.Helper()
	var at time.Time
	if err := h.Store.Pool.QueryRow(context.Background(), "SELECT updated_at FROM offers WHERE id = $1", id).Scan(&at); err != nil {
		t.Fatal(err)
	}
	return at.UTC().Format(time.RFC3339Nano)
}

func checkExampleAccepted(t *testing.T, ex contractExample, resp apitest.Response) {
	t.Helper()
	if resp.Status < 200 || resp.Status >= 300 {
		t.Errorf("%s (%s %s) refuses the contract's example: %d %s", ex.operationID, strings.ToUpper(ex.method), ex.path, resp.Status, resp.Body)
	}
}

// checkNoUncheckedExamples fails on the examples the test does not send:
// those of parameters and of properties inside a request body. A contract
// gives whole request bodies as examples, which the test checks.
func checkNoUncheckedExamples(t *testing.T, doc *openapi3.T) {
	t.Helper()
	for _, path := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(path).Operations() {
			for _, p := range op.Parameters {
				if p.Value.Example != nil || len(p.Value.Examples) > 0 || p.Value.Schema.Value.Example != nil {
					t.Errorf("%s %s: parameter %s has an example, which no test sends", method, path, p.Value.Name)
				}
			}
			if op.RequestBody == nil {
				continue
			}
			walkSchema(op.RequestBody.Value.Content.Get("application/json").Schema.Value, nil, func(at []string, s *openapi3.Schema, _ bool) {
				if s.Example != nil {
					t.Errorf("%s %s: %s has an example, which no test sends: give the body's example", method, path, strings.Join(at, "."))
				}
			})
		}
	}
}
