package collection

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the collection workflows and activities with the
// worker of TaskQueue.
func Register(r worker.Registry, a *activities.Collections) {
	r.RegisterWorkflow(Run)
	r.RegisterWorkflow(Daily)
	call.Register(r, a.SubmitCollections, a.WriteCollectionFiles)
}
