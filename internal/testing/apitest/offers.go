package apitest

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// OfferFixture is a seller with a catalog, a shipping method, a running
// Worker and a token.
type OfferFixture struct {
	Harness *Harness
	Seller  auth.NewSeller
	Token   string
}

// NewOfferFixture is a seller with its catalog and a token on a harness
// tuned for a test, with Tenure's workers running.
func NewOfferFixture(t *testing.T, tune ...func(*config.Config)) OfferFixture {
	t.Helper()
	return NewLoggedOfferFixture(t, testenv.AppLogger(), tune...)
}

// NewLoggedOfferFixture is NewOfferFixture with the application logging to
// logger (NewLogged).
func NewLoggedOfferFixture(t *testing.T, logger *slog.Logger, tune ...func(*config.Config)) OfferFixture {
	t.Helper()
	h := NewLogged(t, logger, tune...)
	h.Worker(t)
	s := h.Seller(t)
	f := OfferFixture{Harness: h, Seller: s, Token: h.Token(t, s, "client")}
	f.Catalog(t)
	return f
}

// Catalog gives the seller a laptop (rentable), a cable (pay now only),
// an inactive product and a shipping method.
func (f OfferFixture) Catalog(t *testing.T) {
	t.Helper()
	r := f.Harness.ImportProducts(t, f.Token,
		ProductJSON("sku", "laptop", "Laptop 14", 150000),
		ProductJSON("sku", "cable", "USB-C cable", 1500),
		ProductJSON("sku", "old", "Old model", 90000, WithField("is_active", false)),
	)
	if r.Status != "completed" || r.Summary.Imported != 3 {
		t.Fatalf("catalog import: %+v", r)
	}
	resp := f.Harness.Do(t, http.MethodPost, "/v1/shipping-method/method", f.Token, map[string]any{"seller_shipping_method_reference": "ups", "name": "UPS"})
	if resp.Status != http.StatusCreated {
		t.Fatalf("shipping method: %d %s", resp.Status, resp.Body)
	}
}

// OfferPayload is a valid create payload: two laptops with a cable each,
// shipped by UPS.
func OfferPayload(reference string, tune ...func(map[string]any)) map[string]any {
	p := map[string]any{
		"seller_offer_reference": reference,
		"sales_channel":          "ecommerce",
		"expires_at":             time.Now().Add(72 * time.Hour).UTC().Format(time.RFC3339),
		"customer": map[string]any{
			"email": "buyer@example.com", "full_name": "Berta Buyer",
			"company": map[string]any{"name": "Buyer GmbH", "vat_number": "DE123456789"},
		},
		"sales_agent":      map[string]any{"name": "Sam Seller", "email": "Sam@Shop.example", "phone": "+49 30 1234"},
		"shipping_address": map[string]any{"city": "Berlin", "country_code": "DE", "line1": "Main street 1", "postal_code": "10115"},
		"shipping":         map[string]any{"seller_shipping_reference": "ups", "price": map[string]any{"currency": "EUR", "net": 1000, "gross": 1190}},
		"metadata":         map[string]any{"crm_id": "42"},
		"lines": []map[string]any{{
			"title": "Laptop 14", "quantity": 2,
			"seller_product_reference": Ref("sku", "laptop"),
			"price":                    map[string]any{"currency": "EUR", "net": 150000},
			"sub_lines": []map[string]any{{
				"title": "USB-C cable", "quantity": 1, "seller_product_reference": Ref("sku", "cable"),
				"price": map[string]any{"currency": "EUR", "net": 1500, "gross": 1785},
			}},
		}},
	}
	for _, f := range tune {
		f(p)
	}
	return p
}

// OfferView is the part of an offer the tests read.
type OfferView struct {
	ID              string            `json:"id"`
	Status          string            `json:"status"`
	Reference       string            `json:"seller_offer_reference"`
	CheckoutURL     string            `json:"checkout_redirect_url"`
	OfferLink       string            `json:"seller_offer_redirect_url"`
	SupersededByID  string            `json:"superseded_by_id"`
	Metadata        map[string]string `json:"metadata"`
	ExpiresAt       time.Time         `json:"expires_at"`
	PricingOverview struct {
		TotalAmount    Money `json:"total_amount"`
		InsteadOf      Money `json:"instead_of_amount"`
		ShippingAmount Money `json:"shipping_amount"`
		Items          []struct {
			Identifier string `json:"identifier"`
			TotalRent  []struct {
				Duration int   `json:"duration"`
				Monthly  Money `json:"monthly_amount"`
			} `json:"total_rent"`
		} `json:"items_summaries"`
	} `json:"pricing_overview"`
	Lines []struct {
		ID       string `json:"id"`
		Quantity int    `json:"quantity"`
		Terms    struct {
			PayNow *struct{ Amount Money } `json:"pay_now"`
			Rent   *struct {
				Duration int   `json:"duration"`
				Monthly  Money `json:"monthly_amount"`
			} `json:"rent"`
		} `json:"available_contract_terms"`
		Sublines []struct {
			Title string `json:"title"`
			Terms struct {
				Rent *struct{} `json:"rent"`
			} `json:"available_contract_terms"`
		} `json:"sublines"`
	} `json:"lines"`
}

// CreateOffer creates an offer and wants 201.
func (f OfferFixture) CreateOffer(t *testing.T, payload map[string]any) OfferView {
	t.Helper()
	resp := f.Harness.Do(t, http.MethodPost, "/v1/offers", f.Token, payload)
	if resp.Status != http.StatusCreated {
		t.Fatalf("create offer: %d %s", resp.Status, resp.Body)
	}
	var o OfferView
	resp.Decode(t, &o)
	return o
}

// GetOffer reads an offer and wants 200.
func (f OfferFixture) GetOffer(t *testing.T, id string) OfferView {
	t.Helper()
	resp := f.Harness.Do(t, http.MethodGet, "/v1/offers/"+id, f.Token, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("get offer: %d %s", resp.Status, resp.Body)
	}
	var o OfferView
	resp.Decode(t, &o)
	return o
}

// Simulate runs a scenario and returns the response.
func (f OfferFixture) Simulate(t *testing.T, scenario string, input map[string]any) Response {
	t.Helper()
	return f.Harness.Do(t, http.MethodPost, "/v1/scenario_simulations/"+scenario, f.Token, map[string]any{"scenario_input": input})
}

// MustSimulate runs a scenario on the offer or order with an id and
// wants 200.
func (f OfferFixture) MustSimulate(t *testing.T, scenario, id string) {
	t.Helper()
	if resp := f.Simulate(t, scenario, map[string]any{"id": id}); resp.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", scenario, resp.Status, resp.Body)
	}
}

// EventTypes lists the seller's event types in order, waiting until want
// of them exist (the events are committed with the transitions).
func (f OfferFixture) EventTypes(t *testing.T, objectID string) []string {
	t.Helper()
	resp := f.Harness.Do(t, http.MethodGet, "/v1/events?object_id="+objectID+"&limit=100", f.Token, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("events: %d %s", resp.Status, resp.Body)
	}
	var page struct {
		Events []struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	resp.Decode(t, &page)
	var types []string
	for _, e := range page.Events {
		types = append(types, e.Type)
	}
	return types
}

// AcceptedOrder creates an offer, has it accepted and returns its order.
func (f OfferFixture) AcceptedOrder(t *testing.T, reference string) string {
	t.Helper()
	o := f.CreateOffer(t, OfferPayload(reference))
	f.MustSimulate(t, "mark_offer_for_review", o.ID)
	f.MustSimulate(t, "mark_offer_accepted", o.ID)
	var id string
	if err := f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT id::text FROM orders WHERE offer_id = $1", o.ID).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// CreateDiscountCode creates a discount code and returns its id.
func (f OfferFixture) CreateDiscountCode(t *testing.T, body map[string]any) string {
	t.Helper()
	resp := f.Harness.Do(t, http.MethodPost, "/v1/discount-codes", f.Token, body)
	if resp.Status != http.StatusCreated {
		t.Fatalf("create discount code: %d %s", resp.Status, resp.Body)
	}
	var c struct {
		ID string `json:"id"`
	}
	resp.Decode(t, &c)
	return c.ID
}

// ConfirmedContract creates an accepted order, confirms it and returns the
// order and the rental contract its line became (awaiting delivery).
func (f OfferFixture) ConfirmedContract(t *testing.T, reference string) (orderID, contractID string) {
	t.Helper()
	orderID = f.AcceptedOrder(t, reference)
	if resp := f.Harness.Do(t, http.MethodPost, "/v1/orders/"+orderID+"/accept", f.Token, nil); resp.Status != http.StatusOK {
		t.Fatalf("confirm order: %d %s", resp.Status, resp.Body)
	}
	if err := f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT id::text FROM rental_contracts WHERE order_id = $1", orderID).Scan(&contractID); err != nil {
		t.Fatal(err)
	}
	return orderID, contractID
}
