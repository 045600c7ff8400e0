package services

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/foundation/idempotency"
)

// ShippingMethods keeps a seller's shipping methods.
type ShippingMethods struct {
	Store *db.Store
}

// List returns one zero-based page of size of the seller's shipping
// methods in creation order, and whether another page follows.
func (s *ShippingMethods) List(ctx context.Context, sellerID uuid.UUID, page, size int64) ([]sellers.ShippingMethod, bool, error) {
	// One row more than a page tells whether another page follows.
	rows, err := s.Store.ListShippingMethods(ctx, dbgen.ListShippingMethodsParams{
		SellerID:  sellerID,
		RowLimit:  size + 1,
		RowOffset: page * size,
	})
	if err != nil {
		return nil, false, err
	}
	hasMore := int64(len(rows)) > size
	if hasMore {
		rows = rows[:size]
	}
	out := make([]sellers.ShippingMethod, len(rows))
	for i, r := range rows {
		out[i] = sellers.ShippingMethodOf(r)
	}
	return out, hasMore, nil
}

// ErrShippingMethodExists refuses a shipping method whose reference the
// seller uses already.
var ErrShippingMethodExists = errors.New("the seller has a shipping method with this reference")

// Create adds a supported shipping method (ID and Supported are set here);
// its reference must be new for the seller, else ErrShippingMethodExists.
func (s *ShippingMethods) Create(ctx context.Context, sellerID uuid.UUID, m sellers.ShippingMethod) (sellers.ShippingMethod, error) {
	id := idempotency.NewID(ctx)
	row, err := s.Store.CreateShippingMethod(ctx, dbgen.CreateShippingMethodParams{
		ID:                            id,
		SellerID:                      sellerID,
		SellerShippingMethodReference: m.Reference,
		Name:                          m.Name,
		IsInStorePickup:               m.InStorePickup,
		Supported:                     true,
	})
	if db.IsNotFound(err) {
		// The reference is taken, by the first attempt of this request if
		// it resumes one.
		row, err = s.createdBy(ctx, sellerID, m.Reference, id)
	}
	if db.IsNotFound(err) {
		return sellers.ShippingMethod{}, ErrShippingMethodExists
	}
	if err != nil {
		return sellers.ShippingMethod{}, err
	}
	return sellers.ShippingMethodOf(row), nil
}

// createdBy returns the seller's shipping method with a reference if a
// resumed request's first attempt created it under the request's id, and
// no row otherwise.
func (s *ShippingMethods) createdBy(ctx context.Context, sellerID uuid.UUID, reference string, id uuid.UUID) (dbgen.ShippingMethod, error) {
	if !idempotency.Resumed(ctx) {
		return dbgen.ShippingMethod{}, pgx.ErrNoRows
	}
	row, err := s.Store.GetShippingMethodByReference(ctx, dbgen.GetShippingMethodByReferenceParams{
		SellerID: sellerID, SellerShippingMethodReference: reference,
	})
	if err == nil && row.ID != id {
		return dbgen.ShippingMethod{}, pgx.ErrNoRows
	}
	return row, err
}
