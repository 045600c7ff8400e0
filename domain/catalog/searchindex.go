package catalog

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// SearchIndexBatch is how many products one transaction of SearchIndexer
// lets into the trigram index: small enough that an import of the same
// seller, which takes the same lock per chunk, waits a fraction of a second.
const SearchIndexBatch = 5000

// SearchIndexer lets the products a CSV import stored into the trigram
// index of their search text once the job has completed. The import copies
// them in marked search_pending, outside that index, because maintaining it
// row by row during the copy was two thirds of a first import; a term
// search finds pending products all the same (see Query.build), only
// without the index's help.
type SearchIndexer struct {
	Store *db.Store
}

// Index lets all of a seller's pending products into the index, a batch
// per transaction under the seller's catalog lock, calling progress after
// each batch with the count so far; it returns that count.
func (s SearchIndexer) Index(ctx context.Context, sellerID uuid.UUID, progress func(indexed int64)) (int64, error) {
	var total int64
	for {
		var n int64
		err := s.Store.InTx(ctx, func(q *dbgen.Queries) error {
			if err := q.LockSellerCatalog(ctx, sellerID); err != nil {
				return err
			}
			var err error
			n, err = q.IndexPendingProducts(ctx, dbgen.IndexPendingProductsParams{SellerID: sellerID, Batch: SearchIndexBatch})
			return err
		})
		if err != nil {
			return total, err
		}
		total += n
		if progress != nil {
			progress(total)
		}
		if n < SearchIndexBatch {
			return total, nil
		}
	}
}
