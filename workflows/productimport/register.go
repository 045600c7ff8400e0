package productimport

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the product import workflow and its activities with
// the worker of TaskQueue.
func Register(r worker.Registry, a *activities.ProductImports) {
	r.RegisterWorkflow(ImportProducts)
	call.Register(r, a.RunProductImport, a.FailProductImport)
}
