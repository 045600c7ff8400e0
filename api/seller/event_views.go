package seller

import (
	"encoding/json"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
)

// EventViews renders the bodies of offer and order events for the worker:
// the offer or order exactly as GET returns it, byte for byte.
type EventViews struct{}

// Offer is an offer's event body.
func (EventViews) Offer(o offers.Stored) (json.RawMessage, error) { return json.Marshal(offerView(o)) }

// Order is an order's event body.
func (EventViews) Order(o orders.Stored) (json.RawMessage, error) { return json.Marshal(orderView(o)) }
