package seller

import (
	"encoding/json"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
)

// EventViews renders the bodies of offer and order events for the worker:
// the offer or order exactly as GET returns it, byte for byte.
type EventViews struct {
	// Review is how the environment decides offers under review, as the
	// offer service's Review, which GET renders with.
	Review offers.Review
}

// NewEventViews are the event views of a configuration's environment.
func NewEventViews(cfg *config.Config) EventViews {
	return EventViews{Review: offers.ReviewOf(cfg.Environment)}
}

// Offer is an offer's event body.
func (v EventViews) Offer(o offers.Stored) (json.RawMessage, error) {
	return json.Marshal(offerView(o, v.Review))
}

// Order is an order's event body.
func (EventViews) Order(o orders.Stored) (json.RawMessage, error) { return json.Marshal(orderView(o)) }
