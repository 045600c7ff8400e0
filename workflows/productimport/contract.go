// Package productimport is the workflow that imports a large product batch
// (POST /v1/catalog/import with 10 or more products) in the background.
// The products wait in the database; the workflow carries only the import
// id, so large batches never pass through Temporal.
package productimport

import (
	"github.com/google/uuid"
)

// TaskQueue is the queue of catalog workflows and activities.
const TaskQueue = "catalog"

// WorkflowID names the workflow of one import; catalog-import/{id} names
// the CSV import jobs (docs/decisions/0029-batch-size-and-background-imports.md).
func WorkflowID(importID uuid.UUID) string { return "product-import/" + importID.String() }

// Input says which recorded import to run.
type Input struct {
	ImportID uuid.UUID
}
