package seller_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"

	"github.com/tenurehq/tenure/internal/testing/apitest"
	"github.com/tenurehq/tenure/workflows/offer"
)

func TestOfferLifecycleToCompletedOrder(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	o := f.CreateOffer(t, apitest.OfferPayload("ref-lifecycle"))
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
	if got := f.GetOffer(t, o.ID); got.Status != "created" || got.ID != o.ID || !reflect.DeepEqual(got.PricingOverview, o.PricingOverview) {
		t.Errorf("GET returns what create returned: %+v", got)
	}

	f.MustSimulate(t, "mark_offer_for_review", o.ID)
	if got := f.GetOffer(t, o.ID); got.Status != "pending_review" {
		t.Fatalf("after review: %s", got.Status)
	}
	f.MustSimulate(t, "mark_offer_accepted", o.ID)
	if got := f.GetOffer(t, o.ID); got.Status != "accepted" {
		t.Fatalf("after acceptance: %s", got.Status)
	}

	resp := f.Harness.Do(t, http.MethodGet, "/v1/orders/paginated", f.Token, nil)
	var orders struct {
		Orders []struct {
			ID, OfferID, Status, SellerOfferReference, CompanyName, AgentName string
		} `json:"orders"`
	}
	resp.Decode(t, &orders)
	if len(orders.Orders) != 1 {
		t.Fatalf("one order: %s", resp.Body)
	}
	orderID := orders.Orders[0].ID
	order := getOrder(t, f, orderID)
	if order.Status != "created" || order.OfferID != o.ID || order.Reference != "ref-lifecycle" || len(order.Assets) != 3 {
		t.Fatalf("order %+v", order)
	}

	for _, step := range []struct{ path, status string }{{"acknowledge", "acknowledged"}, {"accept", "confirmed"}} {
		resp := f.Harness.Do(t, http.MethodPost, "/v1/orders/"+orderID+"/"+step.path, f.Token, nil)
		var summary struct{ Status string }
		resp.Decode(t, &summary)
		if resp.Status != http.StatusOK || summary.Status != step.status {
			t.Fatalf("%s: %d %s", step.path, resp.Status, resp.Body)
		}
	}
	var contracts int
	_ = f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM rental_contracts WHERE order_id = $1", orderID).Scan(&contracts)
	if contracts != 1 {
		t.Errorf("confirming activates one rental contract for the rented line, got %d", contracts)
	}

	ship := func(items []map[string]any) apitest.Response {
		return f.Harness.Do(t, http.MethodPost, "/v1/shipment", f.Token, map[string]any{
			"order_id": orderID, "serial_numbers": items, "tracking_url": "https://track.example/1",
		})
	}
	resp = ship([]map[string]any{{"seller_product_reference": apitest.Ref("sku", "laptop"), "serial_number": "SN-1"}, {"seller_product_reference": apitest.Ref("sku", "cable"), "serial_number": ""}})
	if resp.Status != http.StatusOK {
		t.Fatalf("first shipment: %d %s", resp.Status, resp.Body)
	}
	if got := getOrder(t, f, orderID); got.Status != "partially_fulfilled" {
		t.Fatalf("after the first shipment: %s", got.Status)
	}
	resp = ship([]map[string]any{{"seller_product_reference": apitest.Ref("sku", "laptop"), "serial_number": "SN-1"}})
	// The published contract lists 400 and 404 for shipments, no 422.
	if resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), "SN-1") {
		t.Errorf("a serial number ships once: %d %s", resp.Status, resp.Body)
	}
	resp = ship([]map[string]any{{"seller_product_reference": apitest.Ref("sku", "laptop"), "serial_number": ""}})
	if resp.Status != http.StatusBadRequest || !strings.Contains(string(resp.Body), "serial number") {
		t.Errorf("a rentable item needs a serial number: %d %s", resp.Status, resp.Body)
	}
	resp = ship([]map[string]any{{"seller_product_reference": apitest.Ref("sku", "laptop"), "serial_number": "SN-2"}})
	if resp.Status != http.StatusOK {
		t.Fatalf("last shipment: %d %s", resp.Status, resp.Body)
	}
	order = getOrder(t, f, orderID)
	if order.Status != "completed" || len(order.TrackingURLs) != 1 {
		t.Fatalf("completed order %+v", order)
	}
	for _, a := range order.Assets {
		if a.Status != "shipped" {
			t.Errorf("asset %+v not shipped", a)
		}
	}

	if got := strings.Join(f.EventTypes(t, o.ID), ","); got != "offer.pending_review,offer.accepted" {
		t.Errorf("offer events %s", got)
	}
	if got := strings.Join(f.EventTypes(t, orderID), ","); got != "order.created,order.completed" {
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

func getOrder(t *testing.T, f apitest.OfferFixture, id string) orderView {
	t.Helper()
	resp := f.Harness.Do(t, http.MethodGet, "/v1/orders/"+id, f.Token, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("get order: %d %s", resp.Status, resp.Body)
	}
	var o orderView
	resp.Decode(t, &o)
	return o
}

// A created offer's workflow waits for its expiry only: the creation came
// with the start, so no timer of the creation window stays in its history
// to fire a minute later.
func TestCreatedOfferHasOnlyItsExpiryTimer(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	o := f.CreateOffer(t, apitest.OfferPayload("ref-timers"))
	id, err := uuid.Parse(o.ID)
	if err != nil {
		t.Fatal(err)
	}
	events := f.Harness.Temporal.GetWorkflowHistory(t.Context(), offer.WorkflowID(id), "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
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
