package collection

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the collection workflows, their activities and the
// payout batch the daily Schedule runs after them with the worker of
// TaskQueue.
func Register(r worker.Registry, a *activities.Collections, p *activities.Payouts) {
	r.RegisterWorkflow(Run)
	r.RegisterWorkflow(Daily)
	call.Register(r, a.SubmitCollections, a.WriteCollectionFiles)
	call.Register(r, p.RunPayouts)
}
