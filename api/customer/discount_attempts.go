package customer

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/services"
)

// discountAttempts runs the customer's uses of discount codes within the
// budget of failed attempts (services.DiscountAttempts), counted against
// the client's address.
type discountAttempts struct {
	service *services.DiscountAttempts
	// offerEvent renders the offer in the event that tells its seller
	// the offer's attempts are refused.
	offerEvent func(offers.Stored) (json.RawMessage, error)
}

// try runs use, which checks or applies a discount code on the offer, as
// one attempt; over the budget use does not run, whatever the code, and
// the answer is 429.
func (d discountAttempts) try(ctx context.Context, o offers.Stored, use func() error) error {
	err := d.service.Try(ctx, o, countedAddress(ctx), func() (json.RawMessage, error) { return d.offerEvent(o) }, use)
	var over *discounts.TooManyAttempts
	if errors.As(err, &over) {
		return attemptsRefused(over)
	}
	return err
}

// attemptsRefused is the 429 of an attempt over the budget of failed
// discount codes, with the headers of that budget. It says nothing of the
// code sent, so the right code and a wrong one are refused alike.
func attemptsRefused(e *discounts.TooManyAttempts) *apierror.Error {
	who := "this address"
	if e.Offer {
		who = "this offer"
	}
	wait := max(1, guard.Seconds(e.RetryAfter))
	refusal := apierror.TooManyRequests("too many discount codes were refused for %s (%d); no code is checked before %d seconds have passed", who, e.Limit, wait)
	refusal.Header = map[string]string{
		fiber.HeaderRetryAfter:         strconv.Itoa(wait),
		guard.HeaderRateLimitLimit:     strconv.Itoa(e.Limit),
		guard.HeaderRateLimitRemaining: "0",
		guard.HeaderRateLimitReset:     strconv.Itoa(guard.Seconds(e.Reset)),
	}
	return refusal
}
