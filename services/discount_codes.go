package services

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/discounts"
)

// DiscountCodes keeps the discount codes sellers hand their customers.
type DiscountCodes struct {
	Store *db.Store
	Now   func() time.Time
}

// ErrDiscountCodeNotFound says the seller has no code with an id.
var ErrDiscountCodeNotFound = errors.New("no such discount code")

// Create adds a code in the seller's currency. A field it cannot have is
// a *discounts.Problem; an active code of the same text,
// discounts.ErrDuplicate.
func (d *DiscountCodes) Create(ctx context.Context, sellerID uuid.UUID, n discounts.NewCode) (discounts.Code, error) {
	seller, err := d.Store.GetSeller(ctx, sellerID)
	if err != nil {
		return discounts.Code{}, err
	}
	return discounts.Create(ctx, d.Store.Queries, sellerID, seller.Currency, n, d.Now())
}

// List returns limit of the seller's codes from offset in creation order,
// the inactive ones when asked, and how many there are in all.
func (d *DiscountCodes) List(ctx context.Context, sellerID uuid.UUID, includeInactive bool, limit, offset int64) ([]discounts.Code, int64, error) {
	return discounts.List(ctx, d.Store.Queries, sellerID, includeInactive, limit, offset)
}

// Get reads one code of the seller.
func (d *DiscountCodes) Get(ctx context.Context, sellerID, id uuid.UUID) (discounts.Code, error) {
	return codeFound(discounts.Get(ctx, d.Store.Queries, sellerID, id))
}

// Deactivate stops a code of the seller from being applied from now on.
func (d *DiscountCodes) Deactivate(ctx context.Context, sellerID, id uuid.UUID) (discounts.Code, error) {
	return codeFound(discounts.Deactivate(ctx, d.Store.Queries, sellerID, id))
}

// codeFound names a code the seller lacks (another seller's included)
// ErrDiscountCodeNotFound.
func codeFound(code discounts.Code, err error) (discounts.Code, error) {
	if db.IsNotFound(err) {
		return code, ErrDiscountCodeNotFound
	}
	return code, err
}
