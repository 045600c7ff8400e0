package order

import (
	"slices"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/workflows/entity"
)

// shipmentNamespace scopes the shipment ids the workflow derives.
var shipmentNamespace = uuid.MustParse("3b1f8c2e-5d47-5a9e-8c21-7f4e6d9a0b13")

// Order is the workflow of one order.
func Order(ctx workflow.Context, in Input) (Result, error) {
	w := &orderWorkflow{input: in, state: in.State}
	if err := w.setup(ctx); err != nil {
		return Result{}, err
	}
	return w.run(ctx)
}

type orderWorkflow struct {
	input Input
	state State
	guard *entity.Guard
}

// allowedFrom is the spec's order transition table, with DESIGN.md's
// decisions for shipping and cancelling.
var allowedFrom = map[string][]orders.Status{
	AcknowledgeUpdate: {orders.Created},
	AcceptUpdate:      {orders.Created, orders.Acknowledged},
	RejectUpdate:      {orders.Created, orders.Acknowledged},
	ShipUpdate:        {orders.Confirmed, orders.PartiallyFulfilled},
	CancelUpdate:      {orders.Created, orders.Acknowledged, orders.Confirmed},
}

// targets are the statuses the plain transitions lead to.
var targets = map[string]orders.Status{
	AcknowledgeUpdate: orders.Acknowledged,
	RejectUpdate:      orders.Rejected,
	CancelUpdate:      orders.Canceled,
}

func (w *orderWorkflow) setup(ctx workflow.Context) error {
	w.guard = entity.NewGuard(ctx)
	for _, update := range []string{AcknowledgeUpdate, RejectUpdate, CancelUpdate} {
		err := workflow.SetUpdateHandlerWithOptions(ctx, update,
			func(ctx workflow.Context) error { return w.transition(ctx, update) },
			workflow.UpdateHandlerOptions{Validator: func() error { return w.validate(update) }})
		if err != nil {
			return err
		}
	}
	err := workflow.SetUpdateHandlerWithOptions(ctx, AcceptUpdate, w.confirm,
		workflow.UpdateHandlerOptions{Validator: func() error { return w.validate(AcceptUpdate) }})
	if err != nil {
		return err
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, ShipUpdate, w.ship,
		workflow.UpdateHandlerOptions{Validator: func(ShipRequest) error { return w.validate(ShipUpdate) }})
}

// validate refuses an update the current status does not allow.
func (w *orderWorkflow) validate(update string) error {
	if slices.Contains(allowedFrom[update], w.state.Status) {
		return nil
	}
	return temporal.NewApplicationError(Refusal(w.state.Status, update), ErrStatus)
}

// a names the order activities; the worker registers the real ones.
var a *activities.Orders

func (w *orderWorkflow) transition(ctx workflow.Context, update string) error {
	return w.guard.Do(ctx, func() error { return w.validate(update) }, func(ctx workflow.Context) error {
		in := activities.OrderTransition{OrderID: w.input.OrderID, SellerID: w.input.SellerID, From: w.state.Status, To: targets[update]}
		if err := entity.Persist(ctx, a.Transition, in); err != nil {
			return err
		}
		return w.moveTo(ctx, in.To)
	})
}

// confirm accepts the order; the rental contracts start in the same transaction.
func (w *orderWorkflow) confirm(ctx workflow.Context) error {
	return w.guard.Do(ctx, func() error { return w.validate(AcceptUpdate) }, func(ctx workflow.Context) error {
		in := activities.OrderTransition{OrderID: w.input.OrderID, SellerID: w.input.SellerID, From: w.state.Status, To: orders.Confirmed}
		if err := entity.Persist(ctx, a.Confirm, in); err != nil {
			return err
		}
		return w.moveTo(ctx, orders.Confirmed)
	})
}

// ship records a shipment; the activity checks its items against the
// order's assets and answers the order's new status.
func (w *orderWorkflow) ship(ctx workflow.Context, req ShipRequest) (Result, error) {
	err := w.guard.Do(ctx, func() error { return w.validate(ShipUpdate) }, func(ctx workflow.Context) error {
		// The shipment's id derives from the update's, so a workflow task
		// lost with a crashed worker, and run again, finds the shipment its
		// persistence recorded instead of recording another.
		shipmentID := uuid.NewSHA1(shipmentNamespace, []byte(w.input.OrderID.String()+"/"+workflow.GetCurrentUpdateInfo(ctx).ID))
		in := activities.OrderShipment{OrderID: w.input.OrderID, SellerID: w.input.SellerID, ShipmentID: shipmentID, From: w.state.Status, Shipment: req.Shipment}
		to, err := entity.PersistResult(ctx, a.Ship, in)
		if err != nil {
			return err
		}
		return w.moveTo(ctx, to)
	})
	return Result{Status: w.state.Status}, err
}

func (w *orderWorkflow) moveTo(ctx workflow.Context, status orders.Status) error {
	w.state.Status = status
	return entity.PublishStatus(ctx, string(status))
}

func (w *orderWorkflow) run(ctx workflow.Context) (Result, error) {
	for !w.state.Status.Final() {
		if entity.ContinueAsNewSuggested(ctx) {
			return Result{}, entity.ContinueAsNew(ctx, Order, func() any {
				return Input{OrderID: w.input.OrderID, SellerID: w.input.SellerID, State: w.state}
			})
		}
		status := w.state.Status
		err := workflow.Await(ctx, func() bool { return w.state.Status != status || entity.ContinueAsNewSuggested(ctx) })
		if err != nil {
			return Result{}, err
		}
	}
	return Result{Status: w.state.Status}, entity.HandlersFinished(ctx)
}
