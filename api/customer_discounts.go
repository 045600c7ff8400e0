package api

import (
	"context"
	"time"

	"github.com/tenurehq/tenure/api/customerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/discounts"
)

// customerDiscounts checks discount codes for the offer's customer.
type customerDiscounts struct {
	store    *db.Store
	attempts discountAttempts
	now      func() time.Time
}

// ValidateDiscount implements validateDiscount: it applies and counts no
// use of the code; a code that cannot be applied is a *discounts.Invalid,
// which the error handler answers as InvalidDiscountCodeError, and counts
// as a failed attempt.
func (d customerDiscounts) ValidateDiscount(ctx context.Context, r customerapi.ValidateDiscountRequestObject) (customerapi.ValidateDiscountResponseObject, error) {
	row, err := bearerOffer(ctx, d.store.Queries, r.Body.OfferId)
	if err != nil {
		return nil, err
	}
	// bearerOffer answered for an open offer only: the code is all that
	// is left to check.
	err = d.attempts.try(ctx, row, func() error {
		_, err := discounts.Check(ctx, d.store.Queries, row.SellerID, r.Body.DiscountCode, d.now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return customerapi.ValidateDiscount200JSONResponse{IsValid: true}, nil
}
