package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/catalog"
	"github.com/tenurehq/tenure/workflows/productimport"
)

// importVisibleAttempts is how many attempts may find no recorded import
// before the import counts as never recorded (about 15 s with the
// workflow's retry policy).
const importVisibleAttempts = 5

// CatalogImports runs the background part of product batch imports.
type CatalogImports struct {
	Imports catalog.Imports
}

// RunProductImport imports a recorded batch, resuming after the chunks its
// last heartbeat reported when this is a retry.
func (c *CatalogImports) RunProductImport(ctx context.Context, in productimport.Input) (productimport.Result, error) {
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
			return productimport.Result{}, err
		}
		return productimport.Result{}, temporal.NewNonRetryableApplicationError(err.Error(), productimport.ErrImportNotFound, err)
	}
	if err != nil {
		return productimport.Result{}, err
	}
	s := result.Summary
	return productimport.Result{Status: string(result.Status), Total: s.Total, Imported: s.Imported, Rejected: s.Rejected}, nil
}
