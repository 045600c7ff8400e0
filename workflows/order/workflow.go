package order

import (
	"context"

	"github.com/google/uuid"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/workflows/contract"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/statemachine"
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

// a names the order activities; the worker registers the real ones.
var a *activities.Orders

func (w *orderWorkflow) setup(ctx workflow.Context) error {
	w.guard = entity.NewGuard(ctx)
	handlers := []struct {
		trigger   statemachine.Trigger
		handler   any
		validator any
	}{
		{Acknowledge, func(ctx workflow.Context) error { return w.change(ctx, Acknowledge, a.Transition) }, w.validator(Acknowledge)},
		{Accept, func(ctx workflow.Context) error { return w.change(ctx, Accept, a.Accept) }, w.validator(Accept)},
		{Reject, func(ctx workflow.Context) error { return w.change(ctx, Reject, a.Transition) }, w.validator(Reject)},
		{Cancel, func(ctx workflow.Context) error { return w.change(ctx, Cancel, a.Transition) }, w.validator(Cancel)},
		{ShipAll, w.ship, func(ShipRequest) error { return w.validate(ShipAll) }},
	}
	for _, h := range handlers {
		err := workflow.SetUpdateHandlerWithOptions(ctx, h.trigger.Update, h.handler, workflow.UpdateHandlerOptions{Validator: h.validator})
		if err != nil {
			return err
		}
	}
	return nil
}

// validate refuses an update the current status does not allow, as the
// table says.
func (w *orderWorkflow) validate(t statemachine.Trigger) error {
	if Transitions.Allows(w.state.Status, t.Update) {
		return nil
	}
	return entity.Refuse(Transitions.Refusal(w.state.Status, t.Update))
}

func (w *orderWorkflow) validator(t statemachine.Trigger) func() error {
	return func() error { return w.validate(t) }
}

// change persists the table's transition for a trigger, with its event,
// through the trigger's activity (accepting also writes the rental
// contracts), then tells the order's contracts.
func (w *orderWorkflow) change(ctx workflow.Context, t statemachine.Trigger, persist func(context.Context, activities.OrderTransition) error) error {
	return w.guard.Do(ctx, func() error { return w.validate(t) }, func(ctx workflow.Context) error {
		row := Transitions.Must(w.state.Status, t)
		in := activities.OrderTransition{OrderID: w.input.OrderID, SellerID: w.input.SellerID, From: row.From, To: row.To, Event: row.Event}
		if err := entity.Persist(ctx, persist, in); err != nil {
			return err
		}
		if err := w.moved(ctx, row); err != nil {
			return err
		}
		return w.tellContracts(ctx, row)
	})
}

// contractsChange names the change that made orders run their contracts:
// runs recorded before it replay without its steps.
const contractsChange = "contracts"

// runsContracts reports whether this run tells its contracts of the
// order's changes: every run that reaches a change after the code did.
func runsContracts(ctx workflow.Context) bool {
	return workflow.GetVersion(ctx, contractsChange, workflow.DefaultVersion, 1) >= 1
}

// tellContracts starts the workflows of the contracts an acceptance wrote,
// and tells them of a cancellation after it.
func (w *orderWorkflow) tellContracts(ctx workflow.Context, row statemachine.Transition[orders.Status]) error {
	ref := activities.OrderRef{OrderID: w.input.OrderID, SellerID: w.input.SellerID}
	switch {
	case row.Trigger == Accept && runsContracts(ctx):
		return entity.Persist(ctx, a.StartContracts, ref)
	case row.Trigger == Cancel && row.From == orders.Confirmed && runsContracts(ctx):
		ids, err := entity.PersistResult(ctx, a.Contracts, ref)
		if err != nil {
			return err
		}
		for _, id := range ids {
			signalContract(ctx, id, contract.OrderCanceled, nil)
		}
	}
	return nil
}

// signalContract signals a contract's workflow. One that does not run is
// left alone: its contract was written before contracts ran and its
// workflow, when the backfill starts it, finds what the order did; or it
// ended, and nothing changes it.
func signalContract(ctx workflow.Context, contractID uuid.UUID, name string, arg any) {
	err := workflow.SignalExternalWorkflow(ctx, contract.WorkflowID(contractID), "", name, arg).Get(ctx, nil)
	if err != nil {
		workflow.GetLogger(ctx).Info("contract not told", "contract", contractID, "signal", name, "error", err)
	}
}

// ship records a shipment; the activity checks its items against the
// order's assets and says whether any are left to ship, which picks the
// table's row.
func (w *orderWorkflow) ship(ctx workflow.Context, req ShipRequest) (Result, error) {
	err := w.guard.Do(ctx, func() error { return w.validate(ShipAll) }, func(ctx workflow.Context) error {
		// The shipment's id derives from the update's, so a workflow task
		// lost with a crashed worker, and run again, finds the shipment its
		// persistence recorded instead of recording another.
		shipmentID := uuid.NewSHA1(shipmentNamespace, []byte(w.input.OrderID.String()+"/"+workflow.GetCurrentUpdateInfo(ctx).ID))
		some, all := Transitions.Must(w.state.Status, ShipSome), Transitions.Must(w.state.Status, ShipAll)
		shipped, err := entity.PersistResult(ctx, a.Ship, activities.OrderShipment{
			OrderID: w.input.OrderID, SellerID: w.input.SellerID, ShipmentID: shipmentID, From: w.state.Status, Shipment: req.Shipment,
			Partial:  activities.OrderTarget{To: some.To, Event: some.Event},
			Complete: activities.OrderTarget{To: all.To, Event: all.Event},
		})
		if err != nil {
			return err
		}
		if len(shipped.Delivered) > 0 && runsContracts(ctx) {
			for _, id := range shipped.Delivered {
				signalContract(ctx, id, contract.OrderShipped, contract.ShippedSignal{ShippedAt: shipped.ShippedAt})
			}
		}
		if shipped.Complete {
			return w.moved(ctx, all)
		}
		return w.moved(ctx, some)
	})
	return Result{Status: w.state.Status}, err
}

// moved notes the status a persisted transition reached and publishes it.
func (w *orderWorkflow) moved(ctx workflow.Context, row statemachine.Transition[orders.Status]) error {
	workflow.GetLogger(ctx).Info("order "+row.Trigger.Name, "from", row.From, "to", row.To)
	w.state.Status = row.To
	return entity.PublishStatus(ctx, string(row.To))
}

func (w *orderWorkflow) run(ctx workflow.Context) (Result, error) {
	for !Final(w.state.Status) {
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
