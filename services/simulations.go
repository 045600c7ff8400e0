package services

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Simulations make the sandbox's products and shipping methods
// unsupported, as Tenure's own decisions would; the offer and order
// scenarios are the offer and order services' changes.
type Simulations struct {
	Store *db.Store
}

// UnknownRecord names a record a change was asked of that the seller does
// not have.
type UnknownRecord struct {
	What string
	ID   uuid.UUID
}

// Error names the record, as a simulation's failure does.
func (e *UnknownRecord) Error() string { return fmt.Sprintf("%s %s not found", e.What, e.ID) }

// MarkProductsUnsupported makes the seller's products with these ids
// unfinanceable from now on, noting the scenario as the reason; unless
// every id is one of them, nothing changes (*UnknownRecord).
func (s *Simulations) MarkProductsUnsupported(ctx context.Context, sellerID uuid.UUID, ids []uuid.UUID, scenario string) error {
	return s.markAll(ctx, "product", ids, func(q *dbgen.Queries) ([]uuid.UUID, error) {
		return q.MarkProductsUnsupported(ctx, dbgen.MarkProductsUnsupportedParams{
			SellerID: sellerID, Ids: ids, Reason: "marked unsupported by the " + scenario + " simulation",
		})
	})
}

// MarkShippingMethodsUnsupported makes the seller's shipping methods with
// these ids unusable in offers; unless every id is one of them, nothing
// changes (*UnknownRecord).
func (s *Simulations) MarkShippingMethodsUnsupported(ctx context.Context, sellerID uuid.UUID, ids []uuid.UUID) error {
	return s.markAll(ctx, "shipping method", ids, func(q *dbgen.Queries) ([]uuid.UUID, error) {
		return q.MarkShippingMethodsUnsupported(ctx, dbgen.MarkShippingMethodsUnsupportedParams{SellerID: sellerID, Ids: ids})
	})
}

// markAll runs an update of the seller's records with these ids in one
// transaction, which it rolls back unless every id was one of them.
func (s *Simulations) markAll(ctx context.Context, what string, ids []uuid.UUID, update func(*dbgen.Queries) ([]uuid.UUID, error)) error {
	return s.Store.InTx(ctx, func(q *dbgen.Queries) error {
		updated, err := update(q)
		if err != nil {
			return err
		}
		done := make(map[uuid.UUID]bool, len(updated))
		for _, id := range updated {
			done[id] = true
		}
		for _, id := range ids {
			if !done[id] {
				return &UnknownRecord{What: what, ID: id}
			}
		}
		return nil
	})
}
