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
// A step whose answer is not a success (a worker away, a timeout) is
// checked against the state it should have produced and retried until it
// did, so a lifecycle survives a worker restart.
func (c *Client) Run(ctx context.Context, reference string, p Product, serials []string) (Lifecycle, error) {
	l := Lifecycle{Reference: reference}
	var o struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	err := c.step(ctx, "create offer", func() (int, error) {
		status, _, err := c.Do(ctx, http.MethodPost, "/v1/offers", OfferPayload(reference, p, len(serials)), &o)
		return status, err
	}, func() (bool, error) {
		status, _, err := c.Do(ctx, http.MethodGet, "/v1/offers/ref/"+url.PathEscape(reference), nil, &o)
		return status == http.StatusOK, err
	})
	if err != nil {
		return l, err
	}
	l.OfferID = o.ID
	for _, s := range []struct{ scenario, reached string }{{"mark_offer_for_review", "pending_review"}, {"mark_offer_accepted", "accepted"}} {
		if err := c.simulateUntil(ctx, s.scenario, l.OfferID, "/v1/offers/"+l.OfferID, s.reached); err != nil {
			return l, err
		}
	}
	err = c.step(ctx, "find order", func() (int, error) { return 0, nil }, func() (bool, error) {
		var page struct {
			Orders []struct {
				ID string `json:"id"`
			} `json:"orders"`
		}
		status, _, err := c.Do(ctx, http.MethodGet, "/v1/orders/paginated?query="+url.QueryEscape(reference), nil, &page)
		if status == http.StatusOK && len(page.Orders) == 1 {
			l.OrderID = page.Orders[0].ID
			return true, nil
		}
		return false, err
	})
	if err != nil {
		return l, err
	}
	orderPath := "/v1/orders/" + l.OrderID
	for _, s := range []struct{ action, reached string }{{"acknowledge", "acknowledged"}, {"accept", "confirmed"}} {
		err := c.step(ctx, s.action, func() (int, error) {
			status, _, err := c.Do(ctx, http.MethodPost, orderPath+"/"+s.action, nil, nil)
			return status, err
		}, c.reached(ctx, orderPath, s.reached, "confirmed", "partially_fulfilled", "completed"))
		if err != nil {
			return l, err
		}
	}
	items := make([]map[string]any, len(serials))
	for i, sn := range serials {
		items[i] = map[string]any{"seller_product_reference": map[string]any{"source": p.Source, "reference": p.Reference}, "serial_number": sn}
	}
	err = c.step(ctx, "ship", func() (int, error) {
		status, _, err := c.Do(ctx, http.MethodPost, "/v1/shipment", map[string]any{"order_id": l.OrderID, "serial_numbers": items}, nil)
		return status, err
	}, c.reached(ctx, orderPath, "completed"))
	return l, err
}

// OfferPayload is a telesales offer of units of a product.
func OfferPayload(reference string, p Product, units int) map[string]any {
	return map[string]any{
		"seller_offer_reference": reference,
		"sales_channel":          "telesales",
		"expires_at":             time.Now().Add(7 * 24 * time.Hour).UTC().Format(time.RFC3339),
		"customer":               map[string]any{"full_name": "Load Test", "email": "load@test.example"},
		"lines": []map[string]any{{
			"title": "Load test product", "quantity": units,
			"seller_product_reference": map[string]any{"source": p.Source, "reference": p.Reference},
			"price":                    map[string]any{"currency": p.Currency, "net": p.Net},
		}},
	}
}

func (c *Client) simulateUntil(ctx context.Context, scenario, id, path, reached string) error {
	return c.step(ctx, scenario, func() (int, error) {
		status, _, err := c.Do(ctx, http.MethodPost, "/v1/scenario_simulations/"+scenario, map[string]any{"scenario_input": map[string]any{"id": id}}, nil)
		return status, err
	}, c.reached(ctx, path, reached, "accepted"))
}

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
// is trusted, anything else is checked and the request retried.
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
