package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	openapi_types "github.com/oapi-codegen/runtime/types"
	"go.temporal.io/sdk/activity"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/catalog"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/fixtures"
	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
)

// offerFixtures are the fixture offers and the status each is driven to.
var offerFixtures = []struct {
	reference string
	status    offer.Status
}{
	{fixtures.ActiveOfferReference, offer.Created},
	{fixtures.CreatedOfferReference, offer.Created},
	{fixtures.VoidedOfferReference, offer.Voided},
	{fixtures.ExpiredOfferReference, offer.Expired},
	{fixtures.AcceptedOfferReference, offer.Accepted},
}

// orderFixtures are the statuses of the fixture orders, one each.
var orderFixtures = []order.Status{
	order.Created, order.Acknowledged, order.Confirmed, order.PartiallyFulfilled,
	order.Completed, order.Canceled, order.Rejected,
}

// fixtureExpiry is how far ahead fixture offers expire (the expired one
// expires within seconds).
const fixtureExpiry = 365 * 24 * time.Hour

// SeedOffers drives the fixture offers and orders to their statuses through
// their workflows, exactly as the API and the simulations do. A fixture in
// place is left alone, a half-driven one is driven on, and one whose
// status drifted (an active fixture that expired a year later) is made
// again, so the step can run on every start.
func (f *SandboxFixtures) SeedOffers(ctx context.Context, in SeedInput) (int, error) {
	payload, err := f.fixturePayload(ctx, in.SellerID)
	if err != nil {
		return 0, err
	}
	count := 0
	for _, fx := range offerFixtures {
		if _, err := f.offerTo(ctx, in.SellerID, fx.reference, fx.status, payload); err != nil {
			return count, fmt.Errorf("fixture offer %s: %w", fx.reference, err)
		}
		count++
		activity.RecordHeartbeat(ctx, count)
	}
	for _, status := range orderFixtures {
		reference := fixtures.OrderReferencePrefix + string(status)
		if err := f.orderTo(ctx, in.SellerID, reference, status, payload); err != nil {
			return count, fmt.Errorf("fixture order %s: %w", reference, err)
		}
		count++
		activity.RecordHeartbeat(ctx, count)
	}
	return count, nil
}

// fixturePayload is the offer the fixtures are made of: two units of the
// supported sku fixture, shipped by the sandbox shipping method.
func (f *SandboxFixtures) fixturePayload(ctx context.Context, sellerID uuid.UUID) (sellerapi.OfferCreateRequest, error) {
	ref := catalog.Reference{Source: fixtures.SKUSource, Reference: fixtures.SupportedSKUReference}
	found, err := catalog.FindByReferences(ctx, f.Store.Queries, sellerID, []catalog.Reference{ref})
	if err != nil {
		return sellerapi.OfferCreateRequest{}, err
	}
	product, ok := found[ref]
	if !ok {
		return sellerapi.OfferCreateRequest{}, errors.New("the sku fixture product is missing; seed the catalog first")
	}
	email, company := "buyer@fixtures.example", "Sandbox Customer GmbH"
	return sellerapi.OfferCreateRequest{
		SalesChannel: sellerapi.Ecommerce,
		Customer: &sellerapi.Customer{
			Email: (*openapi_types.Email)(&email), FullName: strPtr("Sandra Sandbox"),
			Company: &sellerapi.Company{Name: &company},
		},
		ShippingAddress: &sellerapi.ShippingAddress{City: "Berlin", CountryCode: "DE", Line1: "Sandboxstraße 1", PostalCode: "10115"},
		Shipping: &sellerapi.OfferShipping{
			SellerShippingReference: fixtures.SupportedShippingReference,
			Price:                   sellerapi.Money{Currency: product.Currency},
		},
		Lines: []sellerapi.OfferLineInput{{
			Title: product.Title, Quantity: 2,
			SellerProductReference: sellerapi.SellerProductReference{Source: ref.Source, Reference: ref.Reference},
			Price:                  sellerapi.OfferPriceInput{Currency: product.Currency, Net: product.PriceNet, Gross: &product.PriceGross},
		}},
	}, nil
}

// offerTo finds the fixture offer with a reference (creating it when it is
// missing or ended elsewhere than wanted) and drives it to status.
func (f *SandboxFixtures) offerTo(ctx context.Context, sellerID uuid.UUID, reference string, status offer.Status, p sellerapi.OfferCreateRequest) (uuid.UUID, error) {
	current, err := f.Offers.GetByReference(ctx, sellerID, reference)
	if errors.Is(err, offers.ErrNotFound) || (err == nil && offer.Status(current.Status).Final() && offer.Status(current.Status) != status) {
		p.SellerOfferReference = reference
		p.ExpiresAt = time.Now().Add(fixtureExpiry)
		if status == offer.Expired {
			p.ExpiresAt = time.Now().Add(2 * time.Second)
		}
		current, err = f.Offers.Create(ctx, sellerID, p, offers.Options{})
	}
	if err != nil {
		return uuid.Nil, err
	}
	id := uuid.MustParse(current.Id)
	for offer.Status(current.Status) != status && !offer.Status(current.Status).Final() {
		var step string
		var args []any
		switch {
		case status == offer.Expired:
			time.Sleep(200 * time.Millisecond) // its timer expires it
		case status == offer.Voided:
			step, args = offer.VoidUpdate, []any{offer.VoidRequest{}}
		case offer.Status(current.Status) == offer.Created:
			step = offer.SubmitForReviewUpdate
		default:
			step = offer.AcceptUpdate
		}
		if step != "" {
			if err := f.Offers.Change(ctx, sellerID, id, step, args...); err != nil {
				return id, err
			}
		}
		if current, err = f.Offers.Get(ctx, sellerID, id); err != nil {
			return id, err
		}
		activity.RecordHeartbeat(ctx, reference)
	}
	return id, nil
}

// orderTo makes the order of an accepted fixture offer and drives it to
// status: the partially fulfilled one ships one of its two units.
func (f *SandboxFixtures) orderTo(ctx context.Context, sellerID uuid.UUID, reference string, status order.Status, p sellerapi.OfferCreateRequest) error {
	offerID, err := f.offerTo(ctx, sellerID, reference, offer.Accepted, p)
	if err != nil {
		return err
	}
	row, err := f.Store.GetOrderByOffer(ctx, dbgen.GetOrderByOfferParams{SellerID: sellerID, OfferID: offerID})
	if err != nil {
		return err
	}
	steps := map[order.Status][]string{
		order.Acknowledged:       {order.AcknowledgeUpdate},
		order.Confirmed:          {order.AcceptUpdate},
		order.PartiallyFulfilled: {order.AcceptUpdate, order.ShipUpdate},
		order.Completed:          {order.AcceptUpdate, order.ShipUpdate, order.ShipUpdate},
		order.Canceled:           {order.CancelUpdate},
		order.Rejected:           {order.RejectUpdate},
	}[status]
	ref := p.Lines[0].SellerProductReference
	for _, step := range steps {
		current, err := f.Orders.Summary(ctx, sellerID, row.ID)
		if err != nil {
			return err
		}
		if order.Status(current.Status) == status || order.Status(current.Status).Final() {
			return nil
		}
		if step != order.ShipUpdate {
			if order.Status(current.Status) != order.Created {
				continue // done by an earlier run
			}
			_, err = f.Orders.Change(ctx, sellerID, row.ID, step)
		} else {
			shipped := 0
			for _, a := range current.Assets {
				if a.Status == sellerapi.OrderAssetStatusShipped {
					shipped++
				}
			}
			_, err = f.Orders.Ship(ctx, sellerID, sellerapi.ShipmentCreateRequest{
				OrderId: row.ID.String(),
				SerialNumbers: []sellerapi.ShipmentSerialNumber{{
					SellerProductReference: ref, SerialNumber: fmt.Sprintf("SANDBOX-%s-%d", row.ID, shipped+1),
				}},
			})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func strPtr(s string) *string { return &s }
