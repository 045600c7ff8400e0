package contractbench_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/contract"
)

// laptop is the line of every storm contract: one laptop rented for 12
// months; an order holds linesPerOrder of them.
var laptop = contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 100000, MonthlyNet: 3000, Months: 12, Rented: true}

const linesPerOrder = 10

// BenchmarkDueDateStorm makes contractCount running contracts whose
// second installments fall due at one instant and measures the rate at
// which they all are due with their events written, against the rate of
// as many bare workflows that wake from a timer at one instant and run one
// local activity; it also reports the worker's memory before and after
// the contracts sleep.
func BenchmarkDueDateStorm(b *testing.B) {
	for range b.N {
		s := newStack(b)
		n := contractCount(b)
		loc, err := s.cfg.Contracts.Location()
		if err != nil {
			b.Fatal(err)
		}
		start := civil.DateOf(time.Now().In(loc))

		began := time.Now()
		ids := s.confirmedContracts(b, n)
		progress := s.startTerms(b, ids, start)
		printf("setup: %d contracts confirmed with their terms started in %s", n, time.Since(began).Round(time.Millisecond))
		testenv.StandInForAutovacuum(b, s.store)

		rssBefore, heapBefore := memory(b)
		// Every contract's clock reads the start of its second month at
		// the same instant, after the workflows had time to start.
		wake := time.Now().Add(30*time.Second + time.Duration(n)*30*time.Millisecond)
		offset := start.AddMonths(1).Midnight(loc).Sub(wake)
		began = time.Now()
		s.startContracts(b, ids, progress, offset)
		s.awaitDue(b, 1, n, wake.Add(-2*time.Second))
		printf("%d contract workflows started and caught up with their first installments in %s", n, time.Since(began).Round(time.Millisecond))
		rssAfter, heapAfter := memory(b)
		printf("worker memory: %.0f MiB resident (%.0f MiB heap) before the contracts, %.0f MiB (%.0f MiB heap) with %d contracts sleeping; workflow cache %d",
			rssBefore, heapBefore, rssAfter, heapAfter, n, s.cfg.Temporal.WorkflowCacheSize)

		contractsTook := s.storm(b, n, wake)
		contractRate := float64(n) / contractsTook.Seconds()
		printf("due-date storm: %d installments due with their events %s after their instant: %.0f contracts/s", n, contractsTook.Round(time.Millisecond), contractRate)

		rawTook := s.bareStorm(b, n)
		rawRate := float64(n) / rawTook.Seconds()
		printf("raw: %d bare workflows woke from their timers and ran their local activities %s after their instant: %.0f workflows/s", n, rawTook.Round(time.Millisecond), rawRate)
		printf("contracts / raw: %.0f %% (goal ≥ 70 %%)", 100*contractRate/rawRate)

		b.ReportMetric(contractRate, "contracts/s")
		b.ReportMetric(rawRate, "raw/s")
		b.ReportMetric(100*contractRate/rawRate, "%-of-raw")
		b.ReportMetric(rssAfter-rssBefore, "MiB-rss-growth")
	}
}

// confirmedContracts writes orders of linesPerOrder rented laptops,
// confirmed, until they hold n contracts.
func (s *stack) confirmedContracts(b *testing.B, n int) []uuid.UUID {
	b.Helper()
	lines := slices.Repeat([]contracttest.Line{laptop}, linesPerOrder)
	var ids []uuid.UUID
	for len(ids) < n {
		orderID := s.fixture.Order(b, fmt.Sprintf("storm-%d", len(ids)), lines[:min(linesPerOrder, n-len(ids))]...)
		ids = append(ids, s.fixture.Confirm(b, orderID)...)
	}
	return ids
}

// startTerms starts the contracts' terms on a day, as their workflows do
// on a shipment, and answers their progress.
func (s *stack) startTerms(b *testing.B, ids []uuid.UUID, on civil.Date) []activities.ContractProgress {
	b.Helper()
	row := contract.Transitions.Must(contracts.AwaitingDelivery, contract.Deliver)
	progress := make([]activities.ContractProgress, len(ids))
	err := parallel(len(ids), 16, func(i int) error {
		var err error
		progress[i], err = s.fixture.Contracts.Start(context.Background(), activities.ContractStart{
			ContractTransition: activities.ContractTransition{
				ContractID: ids[i], SellerID: s.fixture.SellerID, From: row.From, To: row.To, Event: row.Event, Today: on,
			},
			On: on,
		})
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return progress
}

// startContracts starts the running contracts' workflows with their
// clocks offset.
func (s *stack) startContracts(b *testing.B, ids []uuid.UUID, progress []activities.ContractProgress, offset time.Duration) {
	b.Helper()
	settings := contract.Settings{Timezone: s.cfg.Contracts.Timezone, Sandbox: true}
	err := parallel(len(ids), 32, func(i int) error {
		state := contract.State{Status: contracts.Running, ClockOffset: offset, Progress: progress[i]}
		_, err := s.temporal.ExecuteWorkflow(context.Background(), contract.StartOptions(ids[i], s.fixture.SellerID, "storm"), contract.Contract,
			contract.Input{ContractID: ids[i], SellerID: s.fixture.SellerID, Settings: settings, State: &state})
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
}

// awaitDue waits until the installments of a number are due for n
// contracts.
func (s *stack) awaitDue(b *testing.B, number, n int, deadline time.Time) {
	b.Helper()
	waitUntil(b, fmt.Sprintf("installment %d of %d contracts to fall due before the storm (raise the setup time)", number, n), deadline, func() (bool, error) {
		var due int
		err := s.store.Pool.QueryRow(context.Background(),
			"SELECT count(*) FROM contract_installments WHERE number = $1 AND status = 'due'", number).Scan(&due)
		return due == n, err
	})
}

// storm waits until the n installments due at wake are due with their
// events, and answers how long after wake the last event was written.
func (s *stack) storm(b *testing.B, n int, wake time.Time) time.Duration {
	b.Helper()
	var last time.Time
	waitUntil(b, "the storm's installments to fall due", wake.Add(10*time.Minute), func() (bool, error) {
		var written int
		var at *time.Time
		err := s.store.Pool.QueryRow(context.Background(),
			"SELECT count(*), max(created_at) FROM events WHERE seller_id = $1 AND type = $2 AND created_at >= $3",
			s.fixture.SellerID, webhook.ContractInstallmentDue, wake).Scan(&written, &at)
		if at != nil {
			last = *at
		}
		return written == n, err
	})
	s.awaitDue(b, 2, n, time.Now().Add(time.Minute))
	return last.Sub(wake)
}

// bareQueue is the queue of the bare workflows of the raw rate.
const bareQueue = "storm-baseline"

// bareStorm starts n bare workflows that sleep until one instant and then
// run one local activity, and answers how long after the instant the last
// activity ran.
func (s *stack) bareStorm(b *testing.B, n int) time.Duration {
	b.Helper()
	acted.reset()
	wk := worker.New(s.temporal, bareQueue, workflows.EntityWorkerOptions)
	wk.RegisterWorkflowWithOptions(wakeAndAct, workflow.RegisterOptions{Name: "WakeAndAct"})
	if err := wk.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(wk.Stop)
	wake := time.Now().Add(20*time.Second + time.Duration(n)*10*time.Millisecond)
	err := parallel(n, 32, func(i int) error {
		_, err := s.temporal.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{TaskQueue: bareQueue}, "WakeAndAct", wake)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	if time.Now().After(wake.Add(-2 * time.Second)) {
		b.Fatal("the bare workflows did not start before their instant")
	}
	var last time.Time
	waitUntil(b, "the bare workflows' activities", wake.Add(10*time.Minute), func() (bool, error) {
		var done int
		done, last = acted.done()
		return done == n, nil
	})
	return last.Sub(wake)
}

// wakeAndAct sleeps until an instant, then runs one local activity.
func wakeAndAct(ctx workflow.Context, wake time.Time) error {
	if err := workflow.Sleep(ctx, wake.Sub(workflow.Now(ctx))); err != nil {
		return err
	}
	ctx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{StartToCloseTimeout: 10 * time.Second})
	return workflow.ExecuteLocalActivity(ctx, acted.act).Get(ctx, nil)
}

// acted counts the bare workflows' activities and notes when the last
// ran; the worker runs them in this process.
var acted actions

type actions struct {
	mu   sync.Mutex
	n    int
	last time.Time
}

func (a *actions) act(context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	a.last = time.Now()
	return nil
}

func (a *actions) done() (int, time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n, a.last
}

func (a *actions) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n, a.last = 0, time.Time{}
}
