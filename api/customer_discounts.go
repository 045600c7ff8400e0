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
	store *db.Store
	now   func() time.Time
}

// ValidateDiscount implements validateDiscount: it applies and counts
// nothing; a code that cannot be applied is a *discounts.Invalid, which
// the error handler answers as InvalidDiscountCodeError.
func (d customerDiscounts) ValidateDiscount(ctx context.Context, r customerapi.ValidateDiscountRequestObject) (customerapi.ValidateDiscountResponseObject, error) {
	row, err := bearerOffer(ctx, d.store.Queries, r.Body.OfferId)
	if err != nil {
		return nil, err
	}
	if offers.Status(row.Status) != offers.Created {
		return nil, &discounts.Invalid{Reason: discounts.NotApplicable,
			Message: "offer " + row.ID.String() + " is " + row.Status + "; discount codes apply to open offers only"}
	}
	if _, err := discounts.Check(ctx, d.store.Queries, row.SellerID, r.Body.DiscountCode, d.now()); err != nil {
		return nil, err
	}
	return customerapi.ValidateDiscount200JSONResponse{IsValid: true}, nil
}
