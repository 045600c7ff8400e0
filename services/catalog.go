package services

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/workflows/productimport"
)

// Catalog reads a seller's products and imports batches of them: a small
// batch during the request, a large one through the product-import
// workflow.
type Catalog struct {
	Store    *db.Store
	Temporal client.Client
	Imports  catalog.Imports
}

// Import imports a batch of products; per-product problems reject that
// product only and are listed in the result. A request resuming one whose
// process died answers the import its first attempt recorded.
func (c *Catalog) Import(ctx context.Context, sellerID uuid.UUID, products []catalog.ProductInput) (catalog.ImportResult, error) {
	if idempotency.Resumed(ctx) {
		// The request's first attempt may have recorded the import.
		result, err := c.Imports.Get(ctx, sellerID, idempotency.NewID(ctx))
		if !errors.Is(err, catalog.ErrImportNotFound) {
			return result, err
		}
	}
	if len(products) < catalog.SyncBelow {
		return c.Imports.ImportNow(ctx, sellerID, products)
	}
	return c.Imports.Accept(ctx, sellerID, products, c.startImport)
}

// startImport starts the workflow of a recorded import.
func (c *Catalog) startImport(ctx context.Context, id uuid.UUID) error {
	_, err := c.Temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        productimport.WorkflowID(id),
		TaskQueue: productimport.TaskQueue,
	}, productimport.ImportProducts, productimport.Input{ImportID: id})
	return err
}

// GetImport returns the current or final result of an import; an unknown
// one is catalog.ErrImportNotFound.
func (c *Catalog) GetImport(ctx context.Context, sellerID, id uuid.UUID) (catalog.ImportResult, error) {
	return c.Imports.Get(ctx, sellerID, id)
}
