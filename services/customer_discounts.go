package services

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/domain/offers"
)

// CheckDiscount checks that a discount code of the offer's seller can be
// applied now, applying and counting no use of it; one that cannot is a
// *discounts.Invalid.
func (c *CustomerOffers) CheckDiscount(ctx context.Context, o offers.Stored, code string) error {
	_, err := discounts.Check(ctx, c.Offers.Store.Queries, o.Row.SellerID, code, c.Now())
	return err
}

// DiscountAttempts runs the customer's uses of discount codes (validations
// and acceptances naming one) within the budget of failed attempts, and
// dispatches the event that tells a seller its offer's attempts are
// refused.
type DiscountAttempts struct {
	Budget   *discounts.Attempts
	Webhooks *Webhooks
	Logger   *slog.Logger
}

// Try runs use, which checks or applies a discount code on the offer, as
// one attempt from address: counted as failed when use answers
// *discounts.Invalid, given back otherwise. Over the budget use does not
// run, whatever the code: the answer is a *discounts.TooManyAttempts, and
// the event the refusal records (payload renders the offer for it) is
// dispatched.
func (d *DiscountAttempts) Try(ctx context.Context, o offers.Stored, address string, payload func() (json.RawMessage, error), use func() error) error {
	reservation, err := d.Budget.Reserve(ctx, discounts.Attempt{
		SellerID: o.Row.SellerID, OfferID: o.Row.ID, Address: address, Payload: payload,
	})
	var over *discounts.TooManyAttempts
	if errors.As(err, &over) {
		d.dispatch(ctx, over.Reported)
		return over
	}
	if err != nil {
		return err
	}
	err = use()
	var invalid *discounts.Invalid
	if errors.As(err, &invalid) {
		return err
	}
	if released := reservation.Release(ctx); released != nil {
		d.Logger.WarnContext(ctx, "a discount code attempt could not be given back; it counts as failed until it leaves the window",
			"offer_id", o.Row.ID.String(), "error", released)
	}
	return err
}

// dispatch starts the deliveries of the event a refusal recorded, if any;
// when it cannot, the relay of a worker does.
func (d *DiscountAttempts) dispatch(ctx context.Context, event uuid.UUID) {
	if event == uuid.Nil {
		return
	}
	if err := d.Webhooks.Dispatcher.Dispatch(ctx, event); err != nil {
		d.Logger.WarnContext(ctx, "dispatching an event failed; the relay dispatches it", "event_id", event.String(), "error", err)
	}
}
