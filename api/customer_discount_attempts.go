package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/webhook"
)

// discountAttempts runs the customer's uses of discount codes (validations
// and acceptances naming one) within the budget of failed attempts, and
// dispatches the event that tells a seller its offer's attempts are
// refused.
type discountAttempts struct {
	budget     *discounts.Attempts
	dispatcher *webhook.Dispatcher
	logger     *slog.Logger
}

// try runs use, which checks or applies a discount code on the offer row,
// as one attempt: counted as failed when use answers *discounts.Invalid,
// given back otherwise. Over the budget use does not run, whatever the
// code, and the answer is 429.
func (d discountAttempts) try(ctx context.Context, row dbgen.Offer, use func() error) error {
	reservation, err := d.budget.Reserve(ctx, discounts.Attempt{
		SellerID: row.SellerID, OfferID: row.ID, Address: countedAddress(ctx),
		Payload: func() (json.RawMessage, error) {
			o, err := offers.Decode(row)
			if err != nil {
				return nil, err
			}
			return EventViews{}.Offer(o)
		},
	})
	var over *discounts.TooManyAttempts
	if errors.As(err, &over) {
		d.dispatch(ctx, over.Reported)
		return attemptsRefused(over)
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
		d.logger.WarnContext(ctx, "a discount code attempt could not be given back; it counts as failed until it leaves the window",
			"offer_id", row.ID.String(), "error", released)
	}
	return err
}

// dispatch starts the deliveries of the event a refusal recorded, if any;
// when it cannot, the relay of a worker does.
func (d discountAttempts) dispatch(ctx context.Context, event uuid.UUID) {
	if event == uuid.Nil {
		return
	}
	if err := d.dispatcher.Dispatch(ctx, event); err != nil {
		d.logger.WarnContext(ctx, "dispatching an event failed; the relay dispatches it", "event_id", event.String(), "error", err)
	}
}

// attemptsRefused is the 429 of an attempt over the budget of failed
// discount codes, with the headers of that budget. It says nothing of the
// code sent, so the right code and a wrong one are refused alike.
func attemptsRefused(e *discounts.TooManyAttempts) *Error {
	who := "this address"
	if e.Offer {
		who = "this offer"
	}
	wait := max(1, seconds(e.RetryAfter))
	refusal := TooManyRequests("too many discount codes were refused for %s (%d); no code is checked before %d seconds have passed", who, e.Limit, wait)
	refusal.Header = map[string]string{
		fiber.HeaderRetryAfter:   strconv.Itoa(wait),
		headerRateLimitLimit:     strconv.Itoa(e.Limit),
		headerRateLimitRemaining: "0",
		headerRateLimitReset:     strconv.Itoa(seconds(e.Reset)),
	}
	return refusal
}
