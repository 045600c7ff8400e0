package activities

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
)

// Views renders offers and orders exactly as the Seller API's GET returns
// them, which is the body of the events announcing their changes. The API
// implements it; the worker is given it, so an event and a read never
// differ.
type Views interface {
	Offer(offers.Stored) (json.RawMessage, error)
	Order(orders.Stored) (json.RawMessage, error)
}

// Starters start the workflows of offers, orders and contracts whose rows
// an activity wrote; a workflow that runs or ran counts as started. The
// workflow packages implement them.
type Starters interface {
	StartOffer(ctx context.Context, in OfferStart, reference string) error
	StartOrder(ctx context.Context, in OrderStart, reference string) error
	StartContract(ctx context.Context, in ContractRef, reference string) error
}

// FixtureDriver drives a sandbox seller's fixture offers and orders to
// their statuses through their workflows, as merchants' requests do,
// reporting each fixture done. The services implement it.
type FixtureDriver interface {
	SeedOffers(ctx context.Context, sellerID uuid.UUID, done func(count int)) (int, error)
}
