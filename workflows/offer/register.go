package offer

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the offer workflow and its activities with the worker
// of TaskQueue.
func Register(r worker.Registry, a *activities.Offers) {
	r.RegisterWorkflow(Offer)
	call.Register(r, a.Create, a.Transition, a.Accept, a.Edit, a.StartOffer, a.StartOrder, a.ReviewRisk, a.Review, a.ChangeCheckout, a.Submit)
}
