package services

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/payouts"
)

// Payouts reads what Tenure pays sellers for their completed orders.
type Payouts struct {
	Store *db.Store
}

// ErrPayoutNotFound is a payout that does not exist for the seller.
var ErrPayoutNotFound = errors.New("payout not found")

// Get reads a payout of a seller.
func (s *Payouts) Get(ctx context.Context, sellerID, id uuid.UUID) (payouts.Record, error) {
	r, err := payouts.Load(ctx, s.Store.Queries, sellerID, id)
	if db.IsNotFound(err) {
		return r, ErrPayoutNotFound
	}
	return r, err
}

// List returns one page of a seller's payouts and how many match in all.
func (s *Payouts) List(ctx context.Context, sellerID uuid.UUID, f payouts.ListFilter) ([]payouts.Record, int64, error) {
	return payouts.List(ctx, s.Store.Queries, sellerID, f)
}
