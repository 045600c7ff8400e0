package customer

import (
	"context"

	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/services"
)

// customerDiscounts checks discount codes for the offer's customer.
type customerDiscounts struct {
	offers   *services.CustomerOffers
	attempts discountAttempts
}

// ValidateDiscount implements validateDiscount: it applies and counts no
// use of the code; a code that cannot be applied is a *discounts.Invalid,
// which the error handler answers as InvalidDiscountCodeError, and counts
// as a failed attempt.
func (d customerDiscounts) ValidateDiscount(ctx context.Context, r customerapi.ValidateDiscountRequestObject) (customerapi.ValidateDiscountResponseObject, error) {
	o, err := bearerOffer(ctx, d.offers, r.Body.OfferId)
	if err != nil {
		return nil, err
	}
	// bearerOffer answered for an open offer only: the code is all that
	// is left to check.
	err = d.attempts.try(ctx, o, func() error { return d.offers.CheckDiscount(ctx, o, r.Body.DiscountCode) })
	if err != nil {
		return nil, err
	}
	return customerapi.ValidateDiscount200JSONResponse{IsValid: true}, nil
}
