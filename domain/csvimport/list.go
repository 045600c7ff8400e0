package csvimport

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// ListBefore is a page of size of a seller's jobs, newest first, before
// the job (beforeAt, beforeID).
func (j Jobs) ListBefore(ctx context.Context, sellerID uuid.UUID, beforeAt time.Time, beforeID uuid.UUID, size int32) ([]Job, error) {
	rows, err := j.Store.ListSellerCSVImportsBefore(ctx, dbgen.ListSellerCSVImportsBeforeParams{
		SellerID: sellerID, BeforeAt: beforeAt, BeforeID: beforeID, PageSize: size,
	})
	if err != nil {
		return nil, err
	}
	out := make([]Job, len(rows))
	for i, r := range rows {
		out[i] = jobOf(r)
	}
	return out, nil
}
