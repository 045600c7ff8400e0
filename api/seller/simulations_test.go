package seller_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/fixtures"
	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

type supportResult struct {
	Products []struct {
		ID          string        `json:"id"`
		IsSupported bool          `json:"is_supported"`
		Terms       contractTerms `json:"available_contract_terms"`
		Reference   apitest.Pair  `json:"seller_product_reference"`
	} `json:"products"`
}

func checkSupported(t *testing.T, h *apitest.Harness, token string, refs ...map[string]any) supportResult {
	t.Helper()
	resp := h.Do(t, http.MethodPost, "/v1/catalog/check-supported", token, map[string]any{"seller_product_references": refs})
	if resp.Status != http.StatusOK {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var r supportResult
	resp.Decode(t, &r)
	return r
}

func simulate(t *testing.T, h *apitest.Harness, token, scenario string, input any) apitest.Response {
	t.Helper()
	return h.Do(t, http.MethodPost, "/v1/scenario_simulations/"+scenario, token, map[string]any{"scenario_input": input})
}

// The sandbox fixtures answer check-supported as the published sandbox
// describes: pay-now only, rent (two pairs), unsupported; others omitted.
func TestCheckSupportedAgainstTheSandboxFixtures(t *testing.T) {
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
	token := h.Token(t, s, "client")
	r := checkSupported(t, h, token,
		apitest.Ref(fixtures.SAPSource, fixtures.PayNowOnlyReference),
		apitest.Ref(fixtures.SAPSource, fixtures.RentReference),
		apitest.Ref(fixtures.RentAltSource, fixtures.RentAltReference),
		apitest.Ref(fixtures.SAPSource, fixtures.UnsupportedReference),
		apitest.Ref("SAP", "0000-0000"),
		apitest.Ref(fixtures.SKUSource, fixtures.SupportedSKUReference),
		apitest.Ref(fixtures.SKUSource, fixtures.UnsupportedSKUReference),
	)
	if len(r.Products) != 6 {
		t.Fatalf("unknown pairs are omitted: %+v", r.Products)
	}
	payNow, rent, rentAlt, unsupported, sku, skuUnsupported := r.Products[0], r.Products[1], r.Products[2], r.Products[3], r.Products[4], r.Products[5]
	if !payNow.IsSupported || !payNow.Terms.CanPayNow || payNow.Terms.CanRent || payNow.Terms.Rent != nil {
		t.Errorf("SAP/1234-5678 is pay-now only: %+v", payNow)
	}
	if !rent.IsSupported || !rent.Terms.CanRent || rent.Terms.Rent == nil || rent.Terms.Rent.Duration != 36 || rent.ID != rentAlt.ID || rentAlt.Reference != (apitest.Pair{Source: "B6", Reference: "2222-2222"}) {
		t.Errorf("SAP/1111-1111 and B6/2222-2222 have rent terms: %+v %+v", rent, rentAlt)
	}
	if unsupported.IsSupported || unsupported.Terms.CanPayNow || unsupported.Terms.CanRent {
		t.Errorf("SAP/8765-4321 is unsupported: %+v", unsupported)
	}
	if !sku.IsSupported || !sku.Terms.CanRent || skuUnsupported.IsSupported {
		t.Errorf("sku fixtures: %+v %+v", sku, skuUnsupported)
	}
	var rec []recommended
	h.Do(t, http.MethodPost, "/v1/catalog/list-recommended-rental-prices", token, map[string]any{"pricing_requests": []any{
		map[string]any{"seller_product_reference": apitest.Ref(fixtures.SAPSource, fixtures.PayNowOnlyReference)},
		map[string]any{"seller_product_reference": apitest.Ref(fixtures.RentAltSource, fixtures.RentAltReference)},
	}}).Decode(t, &rec)
	if rec[0].HasRentalTerms || !rec[1].HasRentalTerms {
		t.Errorf("recommended prices of the fixtures: %+v", rec)
	}
}

func TestMarkProductUnsupported(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	h.ImportProducts(t, token, apitest.ProductJSON("sku", "a", "A", 50000), apitest.ProductJSON("sku", "b", "B", 50000))
	a, b := productID(t, h, s.Seller.ID, "sku", "a"), productID(t, h, s.Seller.ID, "sku", "b")

	if resp := simulate(t, h, token, "mark_product_unsupported", map[string]any{"ids": []string{a}}); resp.Status != http.StatusOK || len(resp.Body) != 0 {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	r := checkSupported(t, h, token, apitest.Ref("sku", "a"), apitest.Ref("sku", "b"))
	if r.Products[0].IsSupported || r.Products[0].Terms.CanPayNow || !r.Products[1].IsSupported {
		t.Errorf("after the simulation: %+v", r)
	}
	c := cart(t, h, token, item("a", apitest.WithField("quantity", 1)))
	if c.CanCheckout || c.Entries[0].CanCheckout || c.Entries[0].HasRentalTerms {
		t.Errorf("an unsupported product has no checkout and no rental terms: %+v", c)
	}
	// Importing it again does not bring support back.
	h.ImportProducts(t, token, apitest.ProductJSON("sku", "a", "A, renamed", 60000))
	if r := checkSupported(t, h, token, apitest.Ref("sku", "a")); r.Products[0].IsSupported {
		t.Error("a re-import made the product supported again")
	}

	// All or nothing: an id of another seller refuses the whole simulation.
	other := h.Seller(t)
	h.ImportProducts(t, h.Token(t, other, "client"), apitest.ProductJSON("sku", "theirs", "Theirs", 50000))
	theirs := productID(t, h, other.Seller.ID, "sku", "theirs")
	resp := simulate(t, h, token, "mark_product_unsupported", map[string]any{"ids": []string{b, theirs}})
	if resp.Status != http.StatusUnprocessableEntity {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	if e := resp.APIError(t); e["message"] != "Error when simulating scenario mark_product_unsupported: product "+theirs+" not found" {
		t.Errorf("message %v", e["message"])
	}
	if r := checkSupported(t, h, token, apitest.Ref("sku", "b")); !r.Products[0].IsSupported {
		t.Error("a refused simulation changed a product")
	}
	if r := checkSupported(t, h, h.Token(t, other, "client"), apitest.Ref("sku", "theirs")); !r.Products[0].IsSupported {
		t.Error("a simulation changed another seller's product")
	}
	if resp := simulate(t, h, token, "mark_product_unsupported", map[string]any{"ids": []string{uuid.NewString()}}); resp.Status != http.StatusUnprocessableEntity {
		t.Errorf("unknown id: %d %s", resp.Status, resp.Body)
	}
}

func TestMarkShippingMethodUnsupported(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	var created shippingMethod
	h.Do(t, http.MethodPost, "/v1/shipping-method/method", token, map[string]any{"seller_shipping_method_reference": "dhl"}).Decode(t, &created)
	if resp := simulate(t, h, token, "mark_shipping_method_unsupported", map[string]any{"ids": []string{created.ID}}); resp.Status != http.StatusOK {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var page shippingMethodPage
	h.Do(t, http.MethodGet, "/v1/shipping-method", token, nil).Decode(t, &page)
	if len(page.Data) != 1 || page.Data[0].Supported {
		t.Errorf("after the simulation: %+v", page.Data)
	}
	resp := simulate(t, h, token, "mark_shipping_method_unsupported", map[string]any{"ids": []string{uuid.NewString()}})
	if resp.Status != http.StatusUnprocessableEntity || !strings.Contains(resp.APIError(t)["message"].(string), "shipping method") {
		t.Errorf("unknown id: %d %s", resp.Status, resp.Body)
	}
}

func TestSimulationsRefuseMalformedInput(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	h.ImportProducts(t, token, apitest.ProductJSON("sku", "a", "A", 50000))
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
			resp := h.Do(t, http.MethodPost, "/v1/scenario_simulations/"+tc.scenario, token, tc.body)
			if resp.Status != http.StatusBadRequest {
				t.Fatalf("got %d %s", resp.Status, resp.Body)
			}
			if e := resp.APIError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("the message does not name %q: %v", tc.want, e["message"])
			}
		})
	}
	if r := checkSupported(t, h, token, apitest.Ref("sku", "a")); !r.Products[0].IsSupported {
		t.Error("malformed simulations changed a product")
	}
}

func TestSimulationsDoNotExistInProduction(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.Environment = config.Production })
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	h.ImportProducts(t, token, apitest.ProductJSON("sku", "a", "A", 50000))
	id := productID(t, h, s.Seller.ID, "sku", "a")
	resp := simulate(t, h, token, "mark_product_unsupported", map[string]any{"ids": []string{id}})
	if resp.Status != http.StatusNotFound || resp.APIError(t)["name"] != "not_found" {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var status string
	_ = h.Store.Pool.QueryRow(t.Context(), "SELECT support_status FROM products WHERE id = $1", id).Scan(&status)
	if status != "supported" {
		t.Errorf("a production simulation changed the product: %s", status)
	}
}
