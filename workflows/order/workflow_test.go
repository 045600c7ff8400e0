package order

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/workflows/contract"
)

type fakes struct {
	transitions []activities.OrderTransition
	confirmed   []activities.OrderTransition
	shipments   []activities.OrderShipment
	// shipTo is what each successive shipment leads to; "" refuses it.
	shipTo []orders.Status
	// delivered are the contracts each successive shipment delivers.
	delivered [][]uuid.UUID
	// contracts are the order's contracts; contractStarts the orders
	// whose contracts were started.
	contracts      []uuid.UUID
	contractStarts []activities.OrderRef
	// signals are the signals sent to contract workflows.
	signals []contractSignal
}

// contractSignal is a signal the order sent a contract's workflow.
type contractSignal struct {
	workflowID, name string
	arg              any
}

func newEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakes) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	env := suite.NewTestWorkflowEnvironment()
	f := &fakes{}
	Register(env, a)
	env.OnActivity(a.Transition, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.OrderTransition) error {
		f.transitions = append(f.transitions, in)
		return nil
	})
	env.OnActivity(a.Accept, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.OrderTransition) error {
		f.confirmed = append(f.confirmed, in)
		return nil
	})
	env.OnActivity(a.Ship, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.OrderShipment) (activities.OrderShipped, error) {
		f.shipments = append(f.shipments, in)
		next := f.shipTo[0]
		f.shipTo = f.shipTo[1:]
		if next == "" {
			return activities.OrderShipped{}, temporal.NewNonRetryableApplicationError("serial number SN-1 was shipped already", "InvalidShipment", nil)
		}
		var delivered []uuid.UUID
		if len(f.delivered) > 0 {
			delivered, f.delivered = f.delivered[0], f.delivered[1:]
		}
		return activities.OrderShipped{Complete: next == in.Complete.To, Delivered: delivered, ShippedAt: shippedAt}, nil
	})
	env.OnActivity(a.StartContracts, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.OrderRef) error {
		f.contractStarts = append(f.contractStarts, in)
		return nil
	})
	env.OnActivity(a.Contracts, mock.Anything, mock.Anything).Return(func(context.Context, activities.OrderRef) ([]uuid.UUID, error) {
		return f.contracts, nil
	})
	env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, "", mock.Anything, mock.Anything).Return(
		func(_, workflowID, _, name string, arg any) error {
			f.signals = append(f.signals, contractSignal{workflowID, name, arg})
			return nil
		})
	return env, f
}

type outcome struct {
	rejected, err error
	done          bool
}

func send(env *testsuite.TestWorkflowEnvironment, delay time.Duration, name string, args ...any) *outcome {
	o := &outcome{}
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(name, "", &testsuite.TestUpdateCallback{
			OnReject:   func(err error) { o.rejected, o.done = err, true },
			OnAccept:   func() {},
			OnComplete: func(_ any, err error) { o.err, o.done = err, true },
		}, args...)
	}, delay)
	return o
}

// shippedAt is when the fake shipments were recorded.
var shippedAt = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

func start() Input {
	return Input{OrderID: uuid.New(), SellerID: uuid.New(), State: State{Status: orders.Created}}
}

func finalStatus(t *testing.T, env *testsuite.TestWorkflowEnvironment) orders.Status {
	t.Helper()
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("the workflow did not complete cleanly: %v", env.GetWorkflowError())
	}
	var r Result
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	return r.Status
}

func refused(t *testing.T, o *outcome, want string) {
	t.Helper()
	var app *temporal.ApplicationError
	if !errors.As(o.rejected, &app) || app.Type() != string(refusal.StatusNotAllowed) || app.Message() != want {
		t.Errorf("want the refusal %q, got %+v", want, o)
	}
}

func TestOrderLifecycle(t *testing.T) {
	env, f := newEnv(t)
	f.shipTo = []orders.Status{orders.PartiallyFulfilled, orders.Completed}
	shipEarly := send(env, time.Second, ShipAll.Update, ShipRequest{})
	send(env, 2*time.Second, Acknowledge.Update)
	ackAgain := send(env, 3*time.Second, Acknowledge.Update)
	send(env, 4*time.Second, Accept.Update)
	reject := send(env, 5*time.Second, Reject.Update)
	first := send(env, 6*time.Second, ShipAll.Update, ShipRequest{Shipment: orders.Shipment{TrackingURL: "https://t.example/1"}})
	second := send(env, 7*time.Second, ShipAll.Update, ShipRequest{Shipment: orders.Shipment{TrackingURL: "https://t.example/2"}})
	env.ExecuteWorkflow(Order, start())

	refused(t, shipEarly, "orders with status=created cannot be shipped")
	refused(t, ackAgain, "orders with status=acknowledged cannot be acknowledged")
	refused(t, reject, "orders with status=confirmed cannot be rejected")
	if first.err != nil || second.err != nil {
		t.Fatalf("shipments: %+v %+v", first, second)
	}
	if got := finalStatus(t, env); got != orders.Completed {
		t.Fatalf("status %s", got)
	}
	if len(f.confirmed) != 1 || f.confirmed[0].From != orders.Acknowledged {
		t.Errorf("confirmations %+v", f.confirmed)
	}
	if len(f.shipments) != 2 || f.shipments[0].From != orders.Confirmed || f.shipments[1].From != orders.PartiallyFulfilled ||
		f.shipments[1].Shipment.TrackingURL != "https://t.example/2" {
		t.Errorf("shipments %+v", f.shipments)
	}
}

func TestRejectFromCreated(t *testing.T) {
	env, f := newEnv(t)
	send(env, time.Second, Reject.Update)
	env.ExecuteWorkflow(Order, start())
	if got := finalStatus(t, env); got != orders.Rejected {
		t.Fatalf("status %s", got)
	}
	if len(f.transitions) != 1 || f.transitions[0].To != orders.Rejected {
		t.Errorf("transitions %+v", f.transitions)
	}
}

func TestCancelAfterConfirmation(t *testing.T) {
	env, f := newEnv(t)
	send(env, time.Second, Accept.Update)
	send(env, 2*time.Second, Cancel.Update)
	env.ExecuteWorkflow(Order, start())
	if got := finalStatus(t, env); got != orders.Canceled {
		t.Fatalf("status %s", got)
	}
	if len(f.transitions) != 1 || f.transitions[0].From != orders.Confirmed || f.transitions[0].To != orders.Canceled {
		t.Errorf("transitions %+v", f.transitions)
	}
}

func TestNoCancelWhileFulfilling(t *testing.T) {
	env, f := newEnv(t)
	f.shipTo = []orders.Status{orders.PartiallyFulfilled, orders.Completed}
	in := start()
	in.State.Status = orders.Confirmed
	send(env, time.Second, ShipAll.Update, ShipRequest{})
	cancel := send(env, 2*time.Second, Cancel.Update)
	send(env, 3*time.Second, ShipAll.Update, ShipRequest{})
	env.ExecuteWorkflow(Order, in)
	refused(t, cancel, "orders with status=partially_fulfilled cannot be canceled")
	if got := finalStatus(t, env); got != orders.Completed {
		t.Fatalf("status %s", got)
	}
}

func TestFailedShipmentChangesNothing(t *testing.T) {
	env, f := newEnv(t)
	f.shipTo = []orders.Status{"", orders.Completed}
	in := start()
	in.State.Status = orders.Confirmed
	bad := send(env, time.Second, ShipAll.Update, ShipRequest{})
	send(env, 2*time.Second, ShipAll.Update, ShipRequest{})
	env.ExecuteWorkflow(Order, in)
	var app *temporal.ApplicationError
	if !errors.As(bad.err, &app) || app.Type() != "InvalidShipment" {
		t.Fatalf("the shipment's refusal reaches the caller: %+v", bad)
	}
	if got := finalStatus(t, env); got != orders.Completed {
		t.Fatalf("status %s", got)
	}
}

// Accepting an order starts its contracts' workflows; a shipment that
// ships a contract's last asset tells that contract when.
func TestContractsFollowTheOrder(t *testing.T) {
	env, f := newEnv(t)
	first, second := uuid.New(), uuid.New()
	f.shipTo = []orders.Status{orders.PartiallyFulfilled, orders.Completed}
	f.delivered = [][]uuid.UUID{{first}, {second}}
	in := start()
	send(env, time.Second, Accept.Update)
	send(env, 2*time.Second, ShipAll.Update, ShipRequest{})
	send(env, 3*time.Second, ShipAll.Update, ShipRequest{})
	env.ExecuteWorkflow(Order, in)
	if got := finalStatus(t, env); got != orders.Completed {
		t.Fatalf("status %s", got)
	}
	if len(f.contractStarts) != 1 || f.contractStarts[0].OrderID != in.OrderID {
		t.Errorf("contract starts %+v", f.contractStarts)
	}
	if len(f.signals) != 2 {
		t.Fatalf("signals %+v", f.signals)
	}
	for i, id := range []uuid.UUID{first, second} {
		sig := f.signals[i]
		shipped, ok := sig.arg.(contract.ShippedSignal)
		if sig.workflowID != contract.WorkflowID(id) || sig.name != contract.OrderShipped || !ok || !shipped.ShippedAt.Equal(shippedAt) {
			t.Errorf("signal %d: %+v", i, sig)
		}
	}
}

// Cancelling a confirmed order cancels its contracts; one cancelled
// before confirmation has none to tell.
func TestCancellationCancelsTheContracts(t *testing.T) {
	env, f := newEnv(t)
	f.contracts = []uuid.UUID{uuid.New(), uuid.New()}
	send(env, time.Second, Accept.Update)
	send(env, 2*time.Second, Cancel.Update)
	env.ExecuteWorkflow(Order, start())
	if got := finalStatus(t, env); got != orders.Canceled {
		t.Fatalf("status %s", got)
	}
	if len(f.signals) != 2 || f.signals[0].workflowID != contract.WorkflowID(f.contracts[0]) || f.signals[1].name != contract.OrderCanceled {
		t.Errorf("signals %+v", f.signals)
	}

	env, f = newEnv(t)
	f.contracts = []uuid.UUID{uuid.New()}
	send(env, time.Second, Cancel.Update)
	env.ExecuteWorkflow(Order, start())
	if got := finalStatus(t, env); got != orders.Canceled || len(f.signals) != 0 {
		t.Errorf("a cancellation before confirmation: %s, signals %+v", got, f.signals)
	}
}
