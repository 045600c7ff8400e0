package delivery

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the delivery workflow and its activities with the
// worker of TaskQueue.
func Register(r worker.Registry, a *activities.Deliveries) {
	r.RegisterWorkflow(Deliver)
	call.Register(r, a.SendAttempt, a.RecordAttempt)
}
