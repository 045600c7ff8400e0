package sellerclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// Product is the catalog product a lifecycle's offer rents.
type Product struct {
	Source, Reference string
	// Net is the unit price in minor units of Currency.
	Net      int64
	Currency string
}

// Lifecycle is one offer's way from creation to a completed order.
type Lifecycle struct {
	Reference string
	OfferID   string
	OrderID   string
}

// stepTimeout bounds how long a step keeps being retried.
const stepTimeout = 3 * time.Minute

// Run drives a new offer through review and acceptance, then its order
// through acknowledgement, confirmation and one shipment of every unit:
// create → review → accept → acknowledge → confirm → ship all → completed.
// Every step survives a worker restart (see step).
func (c *Client) Run(ctx context.Context, reference string, p Product, serials []string) (Lifecycle, error) {
	l := Lifecycle{Reference: reference}
	var err error
	if l.OfferID, err = c.CreateOffer(ctx, OfferPayload(reference, p, len(serials))); err != nil {
		return l, err
	}
	for _, scenario := range []string{"mark_offer_for_review", "mark_offer_accepted"} {
		if err := c.Simulate(ctx, scenario, l.OfferID); err != nil {
			return l, err
		}
	}
	if l.OrderID, err = c.FindOrder(ctx, reference); err != nil {
		return l, err
	}
	for _, action := range []string{"acknowledge", "accept"} {
		if err := c.OrderAction(ctx, l.OrderID, action); err != nil {
			return l, err
		}
	}
	return l, c.Ship(ctx, l.OrderID, p, serials)
}

// OfferPayload is a telesales offer of units of a product, valid for a week.
func OfferPayload(reference string, p Product, units int) map[string]any {
	return OfferPayloadExpiring(reference, p, units, time.Now().Add(7*24*time.Hour))
}

// OfferPayloadExpiring is a telesales offer of units of a product that
// expires at expiresAt (to the second).
func OfferPayloadExpiring(reference string, p Product, units int, expiresAt time.Time) map[string]any {
	return map[string]any{
		"seller_offer_reference": reference,
		"sales_channel":          "telesales",
		"expires_at":             expiresAt.UTC().Format(time.RFC3339),
		"customer":               map[string]any{"full_name": "Load Test", "email": "load@test.example"},
		"lines": []map[string]any{{
			"title": "Load test product", "quantity": units,
			"seller_product_reference": map[string]any{"source": p.Source, "reference": p.Reference},
			"price":                    map[string]any{"currency": p.Currency, "net": p.Net},
		}},
	}
}

// OfferPath is where an offer is read.
func OfferPath(id string) string { return "/v1/offers/" + id }

// OrderPath is where an order is read.
func OrderPath(id string) string { return "/v1/orders/" + id }

// CreateOffer creates the offer of payload and returns its id; a failed
// answer is checked by reading the offer by its seller_offer_reference.
func (c *Client) CreateOffer(ctx context.Context, payload map[string]any) (string, error) {
	reference, _ := payload["seller_offer_reference"].(string)
	var o struct {
		ID string `json:"id"`
	}
	err := c.step(ctx, "create offer", func() (int, error) {
		status, _, err := c.Do(ctx, http.MethodPost, "/v1/offers", payload, &o)
		return status, err
	}, func() (bool, error) {
		status, _, err := c.Do(ctx, http.MethodGet, "/v1/offers/ref/"+url.PathEscape(reference), nil, &o)
		return status == http.StatusOK, err
	})
	return o.ID, err
}

// scenarioReaches are the offer statuses that show a scenario took effect:
// its own, or any a later step can have moved the offer on to.
var scenarioReaches = map[string][]string{
	"mark_offer_for_review": {"pending_review", "accepted"},
	"mark_offer_accepted":   {"accepted"},
	"mark_offer_declined":   {"declined"},
}

// Simulate runs a sandbox scenario simulation on an offer until the offer
// shows its effect.
func (c *Client) Simulate(ctx context.Context, scenario, offerID string) error {
	reaches, ok := scenarioReaches[scenario]
	if !ok {
		return fmt.Errorf("no offer status shows that scenario %s took effect", scenario)
	}
	return c.step(ctx, scenario, c.sendScenario(ctx, scenario, offerID), c.reached(ctx, OfferPath(offerID), reaches...))
}

// CancelOrder runs the mark_order_cancelled simulation until the order is
// canceled.
func (c *Client) CancelOrder(ctx context.Context, orderID string) error {
	return c.step(ctx, "mark_order_cancelled", c.sendScenario(ctx, "mark_order_cancelled", orderID),
		c.reached(ctx, OrderPath(orderID), "canceled"))
}

func (c *Client) sendScenario(ctx context.Context, scenario, id string) func() (int, error) {
	return func() (int, error) {
		status, _, err := c.Do(ctx, http.MethodPost, "/v1/scenario_simulations/"+scenario, map[string]any{"scenario_input": map[string]any{"id": id}}, nil)
		return status, err
	}
}

// VoidOffer voids an offer through the Seller API.
func (c *Client) VoidOffer(ctx context.Context, offerID string) error {
	return c.post(ctx, "void", OfferPath(offerID)+"/void", map[string]any{}, OfferPath(offerID), "voided")
}

// FindOrder returns the id of the order of the offer with a reference,
// waiting until it exists.
func (c *Client) FindOrder(ctx context.Context, reference string) (string, error) {
	var orderID string
	err := c.step(ctx, "find order", nothing, func() (bool, error) {
		var page struct {
			Orders []struct {
				ID string `json:"id"`
			} `json:"orders"`
		}
		status, _, err := c.Do(ctx, http.MethodGet, "/v1/orders/paginated?query="+url.QueryEscape(reference), nil, &page)
		if status == http.StatusOK && len(page.Orders) == 1 {
			orderID = page.Orders[0].ID
			return true, nil
		}
		return false, err
	})
	return orderID, err
}

// orderActionReaches are the order statuses that show an action took
// effect: its own, or any a later step can have moved the order on to.
var orderActionReaches = map[string][]string{
	"acknowledge": {"acknowledged", "confirmed", "partially_fulfilled", "completed"},
	"accept":      {"confirmed", "partially_fulfilled", "completed"},
	"reject":      {"rejected"},
}

// OrderAction sends POST /v1/orders/{id}/{action} (acknowledge, accept,
// reject) until the order shows its effect.
func (c *Client) OrderAction(ctx context.Context, orderID, action string) error {
	reaches, ok := orderActionReaches[action]
	if !ok {
		return fmt.Errorf("no order status shows that %s took effect", action)
	}
	return c.post(ctx, action, OrderPath(orderID)+"/"+action, nil, OrderPath(orderID), reaches...)
}

// Ship ships every serial of an order's product in one shipment, which
// completes the order.
func (c *Client) Ship(ctx context.Context, orderID string, p Product, serials []string) error {
	items := make([]map[string]any, len(serials))
	for i, sn := range serials {
		items[i] = map[string]any{"seller_product_reference": map[string]any{"source": p.Source, "reference": p.Reference}, "serial_number": sn}
	}
	return c.post(ctx, "ship", "/v1/shipment", map[string]any{"order_id": orderID, "serial_numbers": items}, OrderPath(orderID), "completed")
}

// Await waits until the resource at path shows one of statuses, such as an
// offer that expires on its own.
func (c *Client) Await(ctx context.Context, path string, statuses ...string) error {
	return c.step(ctx, fmt.Sprintf("waiting for %s to be %v", path, statuses), nothing, c.reached(ctx, path, statuses...))
}

// post sends a POST until the resource at statusPath shows one of reached.
func (c *Client) post(ctx context.Context, name, path string, body any, statusPath string, reached ...string) error {
	return c.step(ctx, name, func() (int, error) {
		status, _, err := c.Do(ctx, http.MethodPost, path, body, nil)
		return status, err
	}, c.reached(ctx, statusPath, reached...))
}

// nothing is a step that only waits for its check.
func nothing() (int, error) { return 0, nil }

// reached is a check that the resource at path has one of statuses.
func (c *Client) reached(ctx context.Context, path string, statuses ...string) func() (bool, error) {
	return func() (bool, error) {
		var r struct {
			Status string `json:"status"`
		}
		status, _, err := c.Do(ctx, http.MethodGet, path, nil, &r)
		return status == http.StatusOK && slices.Contains(statuses, r.Status), err
	}
}

// step sends a request until done says its effect is there: a 2xx answer
// is trusted, anything else (a worker away, a timeout) is checked against
// the state it should have produced and the request retried until it did,
// so a lifecycle survives a worker restart.
func (c *Client) step(ctx context.Context, name string, send func() (int, error), done func() (bool, error)) error {
	deadline := time.Now().Add(stepTimeout)
	var last error
	for time.Now().Before(deadline) {
		status, err := send()
		if err == nil && status >= 200 && status < 300 {
			return nil
		}
		last = fmt.Errorf("%s answered %d (%v)", name, status, err)
		if ok, _ := done(); ok {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(250 * time.Millisecond)
	}
	return errors.Join(fmt.Errorf("%s did not take effect in %s", name, stepTimeout), last)
}
