package activities

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/domain/catalog"
)

// importVisibleAttempts is how many attempts may find no recorded import
// before the import counts as never recorded (about 15 s with the
// workflow's retry policy).
const importVisibleAttempts = 5

// ErrImportNotFound is the application error type of an import id with no
// recorded import (a product batch or a CSV job); retrying cannot help.
const ErrImportNotFound = "ImportNotFound"

// ProductImports runs the background part of product batch imports.
type ProductImports struct {
	Imports catalog.Imports
}

// ProductImportInput names a recorded product import.
type ProductImportInput struct {
	ImportID uuid.UUID
}

// ProductImportResult is an import's final status and counters.
type ProductImportResult struct {
	Status   string
	Total    int
	Imported int
	Rejected int
}

// RunProductImport imports a recorded batch, resuming after the chunks its
// last heartbeat reported when this is a retry.
func (c *ProductImports) RunProductImport(ctx context.Context, in ProductImportInput) (ProductImportResult, error) {
	var from *catalog.Progress
	if activity.HasHeartbeatDetails(ctx) {
		var p catalog.Progress
		if err := activity.GetHeartbeatDetails(ctx, &p); err == nil {
			from = &p
		}
	}
	result, err := c.Imports.Run(ctx, in.ImportID, from, func(p catalog.Progress) { activity.RecordHeartbeat(ctx, p) })
	if errors.Is(err, catalog.ErrImportNotFound) {
		// The handler commits the import just after starting the workflow,
		// so a first attempt may not see it yet; only a lasting absence
		// (the commit failed) is final.
		if activity.GetInfo(ctx).Attempt < importVisibleAttempts {
			return ProductImportResult{}, err
		}
		return ProductImportResult{}, temporal.NewNonRetryableApplicationError(err.Error(), ErrImportNotFound, err)
	}
	if err != nil {
		return ProductImportResult{}, err
	}
	s := result.Summary
	return ProductImportResult{Status: string(result.Status), Total: s.Total, Imported: s.Imported, Rejected: s.Rejected}, nil
}

// FailProductImport marks an import failed once its workflow gave up on
// running it, so that reading it does not show it started forever.
func (c *ProductImports) FailProductImport(ctx context.Context, in ProductImportInput) error {
	return c.Imports.Fail(ctx, in.ImportID)
}
