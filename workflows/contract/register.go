package contract

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the contract workflow and its activities with the
// worker of TaskQueue.
func Register(r worker.Registry, a *activities.Contracts) {
	r.RegisterWorkflow(Contract)
	call.Register(r, a.Open, a.Start, a.FallDue, a.GiveNotice, a.Extend, a.Grow, a.RecordReturn, a.BuyOut,
		a.QuoteTermination, a.Terminate, a.Transition, a.SetClock,
		a.SettleCollection, a.Remind, a.WriteOff, a.TerminateAndClaim)
}
