package contract_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/api/seller"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/contract"
)

// A worker stopped while a contract's due date passes, and while its
// clock is moved two months on, skips nothing and makes nothing due twice
// once a new worker runs: the timer fired into the server's history, the
// update waited there, and the new worker replays and catches up in date
// order. On the real dev server.
func TestAWorkerRestartedCatchesUp(t *testing.T) {
	store, tc := testenv.Database(t), testenv.Temporal(t)
	f := contracttest.New(t, store, nil)
	id := f.Confirm(t, f.Order(t, "ref-restart", laptops))[0]

	// The term started on 31 January 2026; its first installment is due.
	start := date(t, "2026-01-31")
	row := contract.Transitions.Must(contracts.AwaitingDelivery, contract.Deliver)
	deliver := activities.ContractTransition{ContractID: id, SellerID: f.SellerID, From: row.From, To: row.To, Event: row.Event, Today: start}
	if _, err := f.Contracts.Start(t.Context(), activities.ContractStart{ContractTransition: deliver, On: start}); err != nil {
		t.Fatal(err)
	}
	row = contract.Transitions.Must(contracts.Running, contract.FallDue)
	progress, err := f.Contracts.FallDue(t.Context(), activities.ContractFallingDue{
		ContractTransition: activities.ContractTransition{ContractID: id, SellerID: f.SellerID, From: row.From, To: row.To, Event: row.Event, Today: start},
		Through:            start,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Its clock reads three seconds before the second installment's day.
	offset := progress.NextDue.Midnight(berlin).Add(-3 * time.Second).Sub(time.Now())
	state := contract.State{Status: contracts.Running, ClockOffset: offset, Progress: progress}

	first := worker(t, f, tc)
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			first.Stop()
		}
	})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	_, err = tc.ExecuteWorkflow(ctx, contract.StartOptions(id, f.SellerID, "ref-restart"), contract.Contract,
		contract.Input{ContractID: id, SellerID: f.SellerID, Settings: settings, State: &state})
	if err != nil {
		t.Fatal(err)
	}
	// The workflow sleeps on its timer to the second installment's day.
	waitFor(t, func() bool {
		history := tc.GetWorkflowHistory(ctx, contract.WorkflowID(id), "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for history.HasNext() {
			e, err := history.Next()
			if err != nil {
				return false
			}
			if e.GetTimerStartedEventAttributes() != nil {
				return true
			}
		}
		return false
	})
	first.Stop()
	stopped = true
	time.Sleep(4 * time.Second) // the second installment's day comes

	answered := make(chan contract.Answer, 1)
	failed := make(chan error, 1)
	go func() {
		a, err := contract.AdvanceContractClock(ctx, tc, id, contract.AdvanceClockRequest{To: new(date(t, "2026-05-01"))})
		if err != nil {
			failed <- err
			return
		}
		answered <- a
	}()
	time.Sleep(time.Second) // the update waits for a worker
	t.Cleanup(worker(t, f, tc).Stop)
	var answer contract.Answer
	select {
	case answer = <-answered:
	case err := <-failed:
		t.Fatal(err)
	case <-ctx.Done():
		t.Fatal("the clock advance never answered")
	}

	if want := date(t, "2026-05-01"); answer.Status != contracts.Running || answer.Today != want {
		t.Errorf("the advance answered %+v, want running on %s", answer, want)
	}
	l := &life{t: t, f: f, input: contract.Input{ContractID: id, SellerID: f.SellerID}}
	c := l.stored()
	events := l.events()
	sameKinds(t, events, webhook.ContractStarted, "due×4")
	checkInstallmentEvents(t, events, c)
	for i, inst := range c.Schedule.Installments {
		if want := map[bool]contracts.InstallmentStatus{true: contracts.InstallmentDue, false: contracts.InstallmentScheduled}[i < 4]; inst.Status != want {
			t.Errorf("installment %d (due %s) is %s, want %s", inst.Number, inst.DueDate, inst.Status, want)
		}
	}
}

// worker runs Tenure's workers on the client's namespace, as `tenure
// worker` does, until it is stopped.
func worker(t *testing.T, f *contracttest.Fixture, tc client.Client) *workflows.Workers {
	t.Helper()
	fixtures, err := services.NewFixtures(f.Config, f.Store, tc)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workflows.NewWorkers(tc, workflows.Deps{Config: f.Config, Store: f.Store, Logger: testenv.AppLogger(), Views: seller.NewEventViews(f.Config), Fixtures: fixtures})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Start(); err != nil {
		t.Fatal(err)
	}
	return ws
}

// waitFor polls a condition for up to half a minute.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("gave up waiting")
		}
	}
}
