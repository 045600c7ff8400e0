package api

import (
	"context"
	"time"

	"github.com/tenurehq/tenure/api/customerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/discounts"
	"github.com/tenurehq/tenure/offers"
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
	err = d.attempts.try(ctx, row, func() error {
		if offers.Status(row.Status) != offers.Created {
			return &discounts.Invalid{Reason: discounts.NotApplicable,
				Message: "offer " + row.ID.String() + " is " + row.Status + "; discount codes apply to open offers only"}
		}
		_, err := discounts.Check(ctx, d.store.Queries, row.SellerID, r.Body.DiscountCode, d.now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return customerapi.ValidateDiscount200JSONResponse{IsValid: true}, nil
}
