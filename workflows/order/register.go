package order

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the order workflow and its activities with the worker
// of TaskQueue.
func Register(r worker.Registry, a *activities.Orders) {
	r.RegisterWorkflow(Order)
	call.Register(r, a.Transition, a.Accept, a.Ship, a.StartContracts, a.Contracts)
}
