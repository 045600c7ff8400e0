package workflows

import (
	"context"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// backfillPage is how many contracts the backfill starts per query.
const backfillPage = 500

// BackfillContracts starts the workflows of the contracts written before
// contracts ran (migration 00090 marked them legacy), and answers how many
// it found. Each workflow opens its contract: it computes the rental
// again from the order line, starts the term at the shipment of the line's
// last asset if it was shipped (catching up with the installments due
// since), or cancels the contract if its order was cancelled. A contract
// whose workflow runs or ran is not started again, and an opened contract
// is no longer legacy, so the backfill may run at every start of a worker:
// after the first, it finds nothing.
func BackfillContracts(ctx context.Context, c client.Client, store *db.Store, cfg *config.Config) (int, error) {
	s := newStarters(c, cfg)
	found := 0
	after := uuid.Nil
	for {
		rows, err := store.ListLegacyContracts(ctx, dbgen.ListLegacyContractsParams{After: after, RowLimit: backfillPage})
		if err != nil {
			return found, err
		}
		for _, row := range rows {
			if err := s.StartContract(ctx, activities.ContractRef{ContractID: row.ID, SellerID: row.SellerID}, row.SellerOfferReference); err != nil {
				return found, err
			}
			found++
			after = row.ID
		}
		if len(rows) < backfillPage {
			return found, nil
		}
	}
}
