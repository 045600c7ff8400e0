package services

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/fixtures"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// Fixtures drives a sandbox seller's fixture offers and orders through
// their workflows, exactly as the API and the simulations do; the sandbox
// seeding activity runs it.
type Fixtures struct {
	Offers *Offers
	Orders *Orders
}

// fixtureExpiry is how far ahead fixture offers expire (the expired one
// expires within seconds).
const fixtureExpiry = 365 * 24 * time.Hour

// SeedOffers drives the fixture offers and orders to their statuses. A
// fixture in place is left alone, a half-driven one is driven on, and one
// whose status drifted (an active fixture that expired a year later) is
// made again, so seeding can run on every start. It calls done with the
// fixtures done so far as it goes.
func (f *Fixtures) SeedOffers(ctx context.Context, sellerID uuid.UUID, done func(count int)) (int, error) {
	request, err := f.fixtureRequest(ctx, sellerID)
	if err != nil {
		return 0, err
	}
	count := 0
	for _, fx := range fixtures.Offers {
		if _, err := f.offerTo(ctx, sellerID, fx.Reference, fx.Status, request, func() { done(count) }); err != nil {
			return count, fmt.Errorf("fixture offer %s: %w", fx.Reference, err)
		}
		count++
		done(count)
	}
	for _, status := range fixtures.OrderStatuses {
		reference := fixtures.OrderReferencePrefix + string(status)
		if err := f.orderTo(ctx, sellerID, reference, status, request, func() { done(count) }); err != nil {
			return count, fmt.Errorf("fixture order %s: %w", reference, err)
		}
		count++
		done(count)
	}
	return count, nil
}

// fixtureRequest is the offer the fixtures are made of: two units of the
// supported sku fixture, shipped by the sandbox shipping method.
func (f *Fixtures) fixtureRequest(ctx context.Context, sellerID uuid.UUID) (offers.Request, error) {
	ref := catalog.Reference{Source: fixtures.SKUSource, Reference: fixtures.SupportedSKUReference}
	found, err := catalog.FindByReferences(ctx, f.Offers.Store.Queries, sellerID, []catalog.Reference{ref})
	if err != nil {
		return offers.Request{}, err
	}
	product, ok := found[ref]
	if !ok {
		return offers.Request{}, errors.New("the sku fixture product is missing; seed the catalog first")
	}
	email, company, name := "buyer@sandbox.example", "Sandbox Customer GmbH", "Sandra Sandbox"
	return offers.Request{
		SalesChannel: offers.Ecommerce,
		Customer: &offers.Customer{
			Email: &email, FullName: &name, Company: &offers.Company{Name: &company},
		},
		ShippingAddress: &offers.Address{City: "Berlin", CountryCode: "DE", Line1: "Sandboxstraße 1", PostalCode: "10115"},
		Shipping: &offers.Shipping{
			Reference: fixtures.SupportedShippingReference,
			Price:     pricing.Money{Currency: product.Currency},
		},
		Lines: []offers.LineRequest{{
			Title: product.Title, Quantity: 2, Product: ref,
			Price: offers.PriceRequest{Currency: product.Currency, Net: product.PriceNet, Gross: &product.PriceGross},
		}},
	}, nil
}

// offerTo finds the fixture offer with a reference (creating it when it is
// missing or ended elsewhere than wanted) and drives it to status.
func (f *Fixtures) offerTo(ctx context.Context, sellerID uuid.UUID, reference string, status offers.Status, r offers.Request, beat func()) (uuid.UUID, error) {
	current, err := f.Offers.GetByReference(ctx, sellerID, reference)
	if errors.Is(err, ErrOfferNotFound) || (err == nil && offer.Final(offers.Status(current.Row.Status)) && offers.Status(current.Row.Status) != status) {
		r.Reference = reference
		r.ExpiresAt = time.Now().Add(fixtureExpiry)
		if status == offers.Expired {
			r.ExpiresAt = time.Now().Add(2 * time.Second)
		}
		current, err = f.Offers.Create(ctx, sellerID, r, offers.Options{})
	}
	if err != nil {
		return uuid.Nil, err
	}
	id := current.Row.ID
	for at := offers.Status(current.Row.Status); at != status && !offer.Final(at); at = offers.Status(current.Row.Status) {
		var step statemachine.Trigger
		var args []any
		switch {
		case status == offers.Expired:
			time.Sleep(200 * time.Millisecond) // its timer expires it
		case status == offers.Voided:
			step, args = offer.Void, []any{offer.VoidRequest{}}
		case at == offers.Created:
			step = offer.SubmitForReview
		default:
			step = offer.Accept
		}
		if step.Update != "" {
			if err := f.Offers.Change(ctx, sellerID, id, step, args...); err != nil {
				return id, err
			}
		}
		if current, err = f.Offers.Get(ctx, sellerID, id); err != nil {
			return id, err
		}
		beat()
	}
	return id, nil
}

// orderTo makes the order of an accepted fixture offer and drives it to
// status: the partially fulfilled one ships one of its two units.
func (f *Fixtures) orderTo(ctx context.Context, sellerID uuid.UUID, reference string, status orders.Status, r offers.Request, beat func()) error {
	offerID, err := f.offerTo(ctx, sellerID, reference, offers.Accepted, r, beat)
	if err != nil {
		return err
	}
	row, err := f.Orders.Store.GetOrderByOffer(ctx, dbgen.GetOrderByOfferParams{SellerID: sellerID, OfferID: offerID})
	if err != nil {
		return err
	}
	steps := map[orders.Status][]statemachine.Trigger{
		orders.Acknowledged:       {order.Acknowledge},
		orders.Confirmed:          {order.Accept},
		orders.PartiallyFulfilled: {order.Accept, order.ShipSome},
		orders.Completed:          {order.Accept, order.ShipSome, order.ShipAll},
		orders.Canceled:           {order.Cancel},
		orders.Rejected:           {order.Reject},
	}[status]
	ref := r.Lines[0].Product
	for _, step := range steps {
		current, err := f.Orders.Get(ctx, sellerID, row.ID)
		if err != nil {
			return err
		}
		at := orders.Status(current.Row.Status)
		if at == status || order.Final(at) {
			return nil
		}
		if step.Update != order.ShipAll.Update {
			if at != orders.Created {
				continue // done by an earlier run
			}
			_, err = f.Orders.Change(ctx, sellerID, row.ID, step)
		} else {
			shipped := 0
			for _, a := range current.Assets {
				if a.Status == orders.AssetShipped {
					shipped++
				}
			}
			err = f.Orders.Ship(ctx, sellerID, row.ID, orders.Shipment{SerialNumbers: []orders.SerialNumber{{
				Source: ref.Source, Reference: ref.Reference, SerialNumber: fmt.Sprintf("SANDBOX-%s-%d", row.ID, shipped+1),
			}}})
		}
		if err != nil {
			return err
		}
		beat()
	}
	return nil
}

// NewFixtures drives fixtures with the offer and order services of a
// configuration.
func NewFixtures(cfg *config.Config, store *db.Store, temporal client.Client) (*Fixtures, error) {
	engine, err := cfg.Pricing.NewEngine()
	if err != nil {
		return nil, err
	}
	return &Fixtures{Offers: NewOffers(cfg, store, temporal, engine), Orders: NewOrders(cfg, store, temporal)}, nil
}
