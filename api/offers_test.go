package api_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/workflows/offer"
)

// offerFixture is a seller with a catalog, a shipping method, a running
// worker and a token.
type offerFixture struct {
	h      *harness
	seller auth.NewSeller
	token  string
}

func newOfferFixture(t *testing.T) offerFixture {
	t.Helper()
	h := newHarness(t)
	h.worker(t)
	s := h.seller(t)
	f := offerFixture{h: h, seller: s, token: h.token(t, s, "client")}
	f.catalog(t)
	return f
}

// catalog gives the seller a laptop (rentable), a cable (pay now only),
// an inactive product and a shipping method.
func (f offerFixture) catalog(t *testing.T) {
	t.Helper()
	r := f.h.importProducts(t, f.token,
		productJSON("sku", "laptop", "Laptop 14", 150000),
		productJSON("sku", "cable", "USB-C cable", 1500),
		productJSON("sku", "old", "Old model", 90000, withField("is_active", false)),
	)
	if r.Status != "completed" || r.Summary.Imported != 3 {
		t.Fatalf("catalog import: %+v", r)
	}
	resp := f.h.do(t, http.MethodPost, "/v1/shipping-method/method", f.token, map[string]any{"seller_shipping_method_reference": "ups", "name": "UPS"})
	if resp.status != http.StatusCreated {
		t.Fatalf("shipping method: %d %s", resp.status, resp.body)
	}
}

// offerPayload is a valid create payload: two laptops with a cable each,
// shipped by UPS.
func offerPayload(reference string, tune ...func(map[string]any)) map[string]any {
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
			"seller_product_reference": ref("sku", "laptop"),
			"price":                    map[string]any{"currency": "EUR", "net": 150000},
			"sub_lines": []map[string]any{{
				"title": "USB-C cable", "quantity": 1, "seller_product_reference": ref("sku", "cable"),
				"price": map[string]any{"currency": "EUR", "net": 1500, "gross": 1785},
			}},
		}},
	}
	for _, f := range tune {
		f(p)
	}
	return p
}

type offerView struct {
	ID              string            `json:"id"`
	Status          string            `json:"status"`
	Reference       string            `json:"seller_offer_reference"`
	CheckoutURL     string            `json:"checkout_redirect_url"`
	OfferLink       string            `json:"seller_offer_redirect_url"`
	SupersededByID  string            `json:"superseded_by_id"`
	Metadata        map[string]string `json:"metadata"`
	ExpiresAt       time.Time         `json:"expires_at"`
	PricingOverview struct {
		TotalAmount    money `json:"total_amount"`
		InsteadOf      money `json:"instead_of_amount"`
		ShippingAmount money `json:"shipping_amount"`
		Items          []struct {
			Identifier string `json:"identifier"`
			TotalRent  []struct {
				Duration int   `json:"duration"`
				Monthly  money `json:"monthly_amount"`
			} `json:"total_rent"`
		} `json:"items_summaries"`
	} `json:"pricing_overview"`
	Lines []struct {
		ID       string `json:"id"`
		Quantity int    `json:"quantity"`
		Terms    struct {
			PayNow *struct{ Amount money } `json:"pay_now"`
			Rent   *struct {
				Duration int   `json:"duration"`
				Monthly  money `json:"monthly_amount"`
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

func (f offerFixture) createOffer(t *testing.T, payload map[string]any) offerView {
	t.Helper()
	resp := f.h.do(t, http.MethodPost, "/v1/offers", f.token, payload)
	if resp.status != http.StatusCreated {
		t.Fatalf("create offer: %d %s", resp.status, resp.body)
	}
	var o offerView
	resp.decode(t, &o)
	return o
}

func (f offerFixture) getOffer(t *testing.T, id string) offerView {
	t.Helper()
	resp := f.h.do(t, http.MethodGet, "/v1/offers/"+id, f.token, nil)
	if resp.status != http.StatusOK {
		t.Fatalf("get offer: %d %s", resp.status, resp.body)
	}
	var o offerView
	resp.decode(t, &o)
	return o
}

// simulate runs a scenario and returns the response.
func (f offerFixture) simulate(t *testing.T, scenario string, input map[string]any) response {
	t.Helper()
	return f.h.do(t, http.MethodPost, "/v1/scenario_simulations/"+scenario, f.token, map[string]any{"scenario_input": input})
}

func (f offerFixture) mustSimulate(t *testing.T, scenario, id string) {
	t.Helper()
	if resp := f.simulate(t, scenario, map[string]any{"id": id}); resp.status != http.StatusOK {
		t.Fatalf("%s: %d %s", scenario, resp.status, resp.body)
	}
}

// eventTypes lists the seller's event types in order, waiting until want
// of them exist (the events are committed with the transitions).
func (f offerFixture) eventTypes(t *testing.T, objectID string) []string {
	t.Helper()
	resp := f.h.do(t, http.MethodGet, "/v1/events?object_id="+objectID+"&limit=100", f.token, nil)
	if resp.status != http.StatusOK {
		t.Fatalf("events: %d %s", resp.status, resp.body)
	}
	var page struct {
		Events []struct {
			Type    string          `json:"type"`
			Payload json.RawMessage `json:"payload"`
		} `json:"events"`
	}
	resp.decode(t, &page)
	var types []string
	for _, e := range page.Events {
		types = append(types, e.Type)
	}
	return types
}

func TestOfferLifecycleToCompletedOrder(t *testing.T) {
	f := newOfferFixture(t)
	o := f.createOffer(t, offerPayload("ref-lifecycle"))
	if o.Status != "created" || o.Reference != "ref-lifecycle" || o.Metadata["crm_id"] != "42" {
		t.Fatalf("created offer %+v", o)
	}
	if !strings.Contains(o.CheckoutURL, "/checkout/offers/"+o.ID+"?token=") || !strings.Contains(o.OfferLink, "?token=") {
		t.Errorf("links: %s %s", o.CheckoutURL, o.OfferLink)
	}
	line := o.Lines[0]
	if line.Quantity != 2 || line.Terms.Rent == nil || line.Terms.Rent.Duration != 36 || line.Terms.PayNow == nil {
		t.Errorf("the laptop line offers pay now and rent over the recommended term: %+v", line)
	}
	if len(line.Sublines) != 1 || line.Sublines[0].Terms.Rent != nil {
		t.Errorf("the cable is pay-now only: %+v", line.Sublines)
	}
	if o.PricingOverview.InsteadOf.Net != 2*(150000+1500) || o.PricingOverview.ShippingAmount.Net != 1000 {
		t.Errorf("purchase price and shipping: %+v", o.PricingOverview)
	}
	if got := f.getOffer(t, o.ID); got.Status != "created" || got.ID != o.ID || !reflect.DeepEqual(got.PricingOverview, o.PricingOverview) {
		t.Errorf("GET returns what create returned: %+v", got)
	}

	f.mustSimulate(t, "mark_offer_for_review", o.ID)
	if got := f.getOffer(t, o.ID); got.Status != "pending_review" {
		t.Fatalf("after review: %s", got.Status)
	}
	f.mustSimulate(t, "mark_offer_accepted", o.ID)
	if got := f.getOffer(t, o.ID); got.Status != "accepted" {
		t.Fatalf("after acceptance: %s", got.Status)
	}

	resp := f.h.do(t, http.MethodGet, "/v1/orders/paginated", f.token, nil)
	var orders struct {
		Orders []struct {
			ID, OfferID, Status, SellerOfferReference, CompanyName, AgentName string
		} `json:"orders"`
	}
	resp.decode(t, &orders)
	if len(orders.Orders) != 1 {
		t.Fatalf("one order: %s", resp.body)
	}
	orderID := orders.Orders[0].ID
	order := f.getOrder(t, orderID)
	if order.Status != "created" || order.OfferID != o.ID || order.Reference != "ref-lifecycle" || len(order.Assets) != 3 {
		t.Fatalf("order %+v", order)
	}

	for _, step := range []struct{ path, status string }{{"acknowledge", "acknowledged"}, {"accept", "confirmed"}} {
		resp := f.h.do(t, http.MethodPost, "/v1/orders/"+orderID+"/"+step.path, f.token, nil)
		var summary struct{ Status string }
		resp.decode(t, &summary)
		if resp.status != http.StatusOK || summary.Status != step.status {
			t.Fatalf("%s: %d %s", step.path, resp.status, resp.body)
		}
	}
	var contracts int
	_ = f.h.store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM rental_contracts WHERE order_id = $1", orderID).Scan(&contracts)
	if contracts != 1 {
		t.Errorf("confirming activates one rental contract for the rented line, got %d", contracts)
	}

	ship := func(items []map[string]any) response {
		return f.h.do(t, http.MethodPost, "/v1/shipment", f.token, map[string]any{
			"order_id": orderID, "serial_numbers": items, "tracking_url": "https://track.example/1",
		})
	}
	resp = ship([]map[string]any{{"seller_product_reference": ref("sku", "laptop"), "serial_number": "SN-1"}, {"seller_product_reference": ref("sku", "cable"), "serial_number": ""}})
	if resp.status != http.StatusOK {
		t.Fatalf("first shipment: %d %s", resp.status, resp.body)
	}
	if got := f.getOrder(t, orderID); got.Status != "partially_fulfilled" {
		t.Fatalf("after the first shipment: %s", got.Status)
	}
	resp = ship([]map[string]any{{"seller_product_reference": ref("sku", "laptop"), "serial_number": "SN-1"}})
	// The published contract lists 400 and 404 for shipments, no 422.
	if resp.status != http.StatusBadRequest || !strings.Contains(string(resp.body), "SN-1") {
		t.Errorf("a serial number ships once: %d %s", resp.status, resp.body)
	}
	resp = ship([]map[string]any{{"seller_product_reference": ref("sku", "laptop"), "serial_number": ""}})
	if resp.status != http.StatusBadRequest || !strings.Contains(string(resp.body), "serial number") {
		t.Errorf("a rentable item needs a serial number: %d %s", resp.status, resp.body)
	}
	resp = ship([]map[string]any{{"seller_product_reference": ref("sku", "laptop"), "serial_number": "SN-2"}})
	if resp.status != http.StatusOK {
		t.Fatalf("last shipment: %d %s", resp.status, resp.body)
	}
	order = f.getOrder(t, orderID)
	if order.Status != "completed" || len(order.TrackingURLs) != 1 {
		t.Fatalf("completed order %+v", order)
	}
	for _, a := range order.Assets {
		if a.Status != "shipped" {
			t.Errorf("asset %+v not shipped", a)
		}
	}

	if got := strings.Join(f.eventTypes(t, o.ID), ","); got != "offer.pending_review,offer.accepted" {
		t.Errorf("offer events %s", got)
	}
	if got := strings.Join(f.eventTypes(t, orderID), ","); got != "order.created,order.completed" {
		t.Errorf("order events %s", got)
	}
}

type orderView struct {
	ID           string   `json:"id"`
	OfferID      string   `json:"offer_id"`
	Status       string   `json:"status"`
	Reference    string   `json:"seller_offer_reference"`
	TrackingURLs []string `json:"tracking_urls"`
	Assets       []struct {
		Status       string `json:"status"`
		SerialNumber string `json:"serial_number"`
	} `json:"assets"`
}

func (f offerFixture) getOrder(t *testing.T, id string) orderView {
	t.Helper()
	resp := f.h.do(t, http.MethodGet, "/v1/orders/"+id, f.token, nil)
	if resp.status != http.StatusOK {
		t.Fatalf("get order: %d %s", resp.status, resp.body)
	}
	var o orderView
	resp.decode(t, &o)
	return o
}

// A created offer's workflow waits for its expiry only: the creation came
// with the start, so no timer of the creation window stays in its history
// to fire a minute later.
func TestCreatedOfferHasOnlyItsExpiryTimer(t *testing.T) {
	f := newOfferFixture(t)
	o := f.createOffer(t, offerPayload("ref-timers"))
	id, err := uuid.Parse(o.ID)
	if err != nil {
		t.Fatal(err)
	}
	events := f.h.temporal.GetWorkflowHistory(t.Context(), offer.WorkflowID(id), "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var timers []time.Duration
	for events.HasNext() {
		e, err := events.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := e.GetTimerStartedEventAttributes(); a != nil {
			timers = append(timers, a.GetStartToFireTimeout().AsDuration())
		}
	}
	if len(timers) != 1 || timers[0] < 24*time.Hour {
		t.Errorf("timers started: %v, want only the expiry (days away)", timers)
	}
}
