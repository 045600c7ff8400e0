package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/fixtures"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

type supportResult struct {
	Products []struct {
		ID          string        `json:"id"`
		IsSupported bool          `json:"is_supported"`
		Terms       contractTerms `json:"available_contract_terms"`
		Reference   pair          `json:"seller_product_reference"`
	} `json:"products"`
}

func (h *harness) checkSupported(t *testing.T, token string, refs ...map[string]any) supportResult {
	t.Helper()
	resp := h.do(t, http.MethodPost, "/v1/catalog/check-supported", token, map[string]any{"seller_product_references": refs})
	if resp.status != http.StatusOK {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	var r supportResult
	resp.decode(t, &r)
	return r
}

func (h *harness) simulate(t *testing.T, token, scenario string, input any) response {
	t.Helper()
	return h.do(t, http.MethodPost, "/v1/scenario_simulations/"+scenario, token, map[string]any{"scenario_input": input})
}

// The sandbox fixtures answer check-supported as the published sandbox
// describes: pay-now only, rent (two pairs), unsupported; others omitted.
func TestCheckSupportedAgainstTheSandboxFixtures(t *testing.T) {
	h := newHarness(t)
	h.worker(t)
	s := h.seller(t)
	run, err := h.temporal.ExecuteWorkflow(t.Context(), client.StartWorkflowOptions{
		ID: sandbox.WorkflowID(s.Seller.ID), TaskQueue: sandbox.TaskQueue,
	}, sandbox.SeedSeller, sandbox.SeedInput{SellerID: s.Seller.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	token := h.token(t, s, "client")
	r := h.checkSupported(t, token,
		ref(fixtures.SAPSource, fixtures.PayNowOnlyReference),
		ref(fixtures.SAPSource, fixtures.RentReference),
		ref(fixtures.RentAltSource, fixtures.RentAltReference),
		ref(fixtures.SAPSource, fixtures.UnsupportedReference),
		ref("SAP", "0000-0000"),
		ref(fixtures.SKUSource, fixtures.SupportedSKUReference),
		ref(fixtures.SKUSource, fixtures.UnsupportedSKUReference),
	)
	if len(r.Products) != 6 {
		t.Fatalf("unknown pairs are omitted: %+v", r.Products)
	}
	payNow, rent, rentAlt, unsupported, sku, skuUnsupported := r.Products[0], r.Products[1], r.Products[2], r.Products[3], r.Products[4], r.Products[5]
	if !payNow.IsSupported || !payNow.Terms.CanPayNow || payNow.Terms.CanRent || payNow.Terms.Rent != nil {
		t.Errorf("SAP/1234-5678 is pay-now only: %+v", payNow)
	}
	if !rent.IsSupported || !rent.Terms.CanRent || rent.Terms.Rent == nil || rent.Terms.Rent.Duration != 36 || rent.ID != rentAlt.ID || rentAlt.Reference != (pair{"B6", "2222-2222"}) {
		t.Errorf("SAP/1111-1111 and B6/2222-2222 have rent terms: %+v %+v", rent, rentAlt)
	}
	if unsupported.IsSupported || unsupported.Terms.CanPayNow || unsupported.Terms.CanRent {
		t.Errorf("SAP/8765-4321 is unsupported: %+v", unsupported)
	}
	if !sku.IsSupported || !sku.Terms.CanRent || skuUnsupported.IsSupported {
		t.Errorf("sku fixtures: %+v %+v", sku, skuUnsupported)
	}
	var rec []recommended
	h.do(t, http.MethodPost, "/v1/catalog/list-recommended-rental-prices", token, map[string]any{"pricing_requests": []any{
		map[string]any{"seller_product_reference": ref(fixtures.SAPSource, fixtures.PayNowOnlyReference)},
		map[string]any{"seller_product_reference": ref(fixtures.RentAltSource, fixtures.RentAltReference)},
	}}).decode(t, &rec)
	if rec[0].HasRentalTerms || !rec[1].HasRentalTerms {
		t.Errorf("recommended prices of the fixtures: %+v", rec)
	}
}

func TestMarkProductUnsupported(t *testing.T) {
	h := newHarness(t)
	s := h.seller(t)
	token := h.token(t, s, "client")
	h.importProducts(t, token, productJSON("sku", "a", "A", 50000), productJSON("sku", "b", "B", 50000))
	a, b := h.productID(t, s.Seller.ID, "sku", "a"), h.productID(t, s.Seller.ID, "sku", "b")

	if resp := h.simulate(t, token, "mark_product_unsupported", map[string]any{"ids": []string{a}}); resp.status != http.StatusOK || len(resp.body) != 0 {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	r := h.checkSupported(t, token, ref("sku", "a"), ref("sku", "b"))
	if r.Products[0].IsSupported || r.Products[0].Terms.CanPayNow || !r.Products[1].IsSupported {
		t.Errorf("after the simulation: %+v", r)
	}
	c := h.cart(t, token, item("a", withField("quantity", 1)))
	if c.CanCheckout || c.Entries[0].CanCheckout || c.Entries[0].HasRentalTerms {
		t.Errorf("an unsupported product has no checkout and no rental terms: %+v", c)
	}
	// Importing it again does not bring support back.
	h.importProducts(t, token, productJSON("sku", "a", "A, renamed", 60000))
	if r := h.checkSupported(t, token, ref("sku", "a")); r.Products[0].IsSupported {
		t.Error("a re-import made the product supported again")
	}

	// All or nothing: an id of another seller refuses the whole simulation.
	other := h.seller(t)
	h.importProducts(t, h.token(t, other, "client"), productJSON("sku", "theirs", "Theirs", 50000))
	theirs := h.productID(t, other.Seller.ID, "sku", "theirs")
	resp := h.simulate(t, token, "mark_product_unsupported", map[string]any{"ids": []string{b, theirs}})
	if resp.status != http.StatusUnprocessableEntity {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	if e := resp.apiError(t); e["message"] != "Error when simulating scenario mark_product_unsupported: product "+theirs+" not found" {
		t.Errorf("message %v", e["message"])
	}
	if r := h.checkSupported(t, token, ref("sku", "b")); !r.Products[0].IsSupported {
		t.Error("a refused simulation changed a product")
	}
	if r := h.checkSupported(t, h.token(t, other, "client"), ref("sku", "theirs")); !r.Products[0].IsSupported {
		t.Error("a simulation changed another seller's product")
	}
	if resp := h.simulate(t, token, "mark_product_unsupported", map[string]any{"ids": []string{uuid.NewString()}}); resp.status != http.StatusUnprocessableEntity {
		t.Errorf("unknown id: %d %s", resp.status, resp.body)
	}
}

func TestMarkShippingMethodUnsupported(t *testing.T) {
	h := newHarness(t)
	s := h.seller(t)
	token := h.token(t, s, "client")
	var created shippingMethod
	h.do(t, http.MethodPost, "/v1/shipping-method/method", token, map[string]any{"seller_shipping_method_reference": "dhl"}).decode(t, &created)
	if resp := h.simulate(t, token, "mark_shipping_method_unsupported", map[string]any{"ids": []string{created.ID}}); resp.status != http.StatusOK {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	var page shippingMethodPage
	h.do(t, http.MethodGet, "/v1/shipping-method", token, nil).decode(t, &page)
	if len(page.Data) != 1 || page.Data[0].Supported {
		t.Errorf("after the simulation: %+v", page.Data)
	}
	resp := h.simulate(t, token, "mark_shipping_method_unsupported", map[string]any{"ids": []string{uuid.NewString()}})
	if resp.status != http.StatusUnprocessableEntity || !strings.Contains(resp.apiError(t)["message"].(string), "shipping method") {
		t.Errorf("unknown id: %d %s", resp.status, resp.body)
	}
}

func TestSimulationsRefuseMalformedInput(t *testing.T) {
	h := newHarness(t)
	s := h.seller(t)
	token := h.token(t, s, "client")
	h.importProducts(t, token, productJSON("sku", "a", "A", 50000))
	cases := []struct {
		name     string
		scenario string
		body     any
		want     string
	}{
		{"missing ids", "mark_product_unsupported", map[string]any{"scenario_input": map[string]any{"id": "x"}}, "scenario_input.ids is required"},
		{"empty ids", "mark_product_unsupported", map[string]any{"scenario_input": map[string]any{"ids": []string{}}}, "scenario_input.ids must list 1 to 1000 ids"},
		{"not uuids", "mark_shipping_method_unsupported", map[string]any{"scenario_input": map[string]any{"ids": []string{"abc"}}}, `scenario_input.ids[0] must be a UUID, got "abc"`},
		{"ids of the wrong type", "mark_product_unsupported", map[string]any{"scenario_input": map[string]any{"ids": "abc"}}, "scenario_input.ids"},
		{"no scenario_input", "mark_product_unsupported", map[string]any{}, "scenario_input"},
		{"unknown scenario", "mark_everything_free", map[string]any{"scenario_input": map[string]any{}}, "scenario_name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := h.do(t, http.MethodPost, "/v1/scenario_simulations/"+tc.scenario, token, tc.body)
			if resp.status != http.StatusBadRequest {
				t.Fatalf("got %d %s", resp.status, resp.body)
			}
			if e := resp.apiError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("the message does not name %q: %v", tc.want, e["message"])
			}
		})
	}
	if r := h.checkSupported(t, token, ref("sku", "a")); !r.Products[0].IsSupported {
		t.Error("malformed simulations changed a product")
	}
}

func TestSimulationsDoNotExistInProduction(t *testing.T) {
	h := newHarness(t, func(c *config.Config) { c.Environment = config.Production })
	s := h.seller(t)
	token := h.token(t, s, "client")
	h.importProducts(t, token, productJSON("sku", "a", "A", 50000))
	id := h.productID(t, s.Seller.ID, "sku", "a")
	resp := h.simulate(t, token, "mark_product_unsupported", map[string]any{"ids": []string{id}})
	if resp.status != http.StatusNotFound || resp.apiError(t)["name"] != "not_found" {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	var status string
	_ = h.store.Pool.QueryRow(t.Context(), "SELECT support_status FROM products WHERE id = $1", id).Scan(&status)
	if status != "supported" {
		t.Errorf("a production simulation changed the product: %s", status)
	}
}
