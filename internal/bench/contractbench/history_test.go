package contractbench_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"

	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/workflows/contract"
)

// BenchmarkLongestHistory lives a 36-month contract with a 12-month
// extension on the dev server, its sandbox clock moved one month at a time
// (a wake a month, as its timers make in production): started, to its
// notice, extended by a term, to the next notice, past the end into month
// by month and two months more, bought out. It reports the longest history of any of its
// runs, which continue-as-new keeps short.
func BenchmarkLongestHistory(b *testing.B) {
	for range b.N {
		s := newStack(b)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		line := contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 150000, MonthlyNet: 4500, Months: 36, Rented: true}
		id := s.fixture.Confirm(b, s.fixture.Order(b, "bench-history", line))[0]
		settings := contract.Settings{Timezone: s.cfg.Contracts.Timezone, Sandbox: true}
		run, err := s.temporal.ExecuteWorkflow(ctx, contract.StartOptions(id, s.fixture.SellerID, "bench-history"), contract.Contract,
			contract.Input{ContractID: id, SellerID: s.fixture.SellerID, Settings: settings})
		if err != nil {
			b.Fatal(err)
		}
		began := time.Now()
		answer, err := contract.MarkStarted(ctx, s.temporal, id)
		if err != nil {
			b.Fatal(err)
		}
		months := 0
		month := func() {
			b.Helper()
			if answer, err = contract.AdvanceContractClock(ctx, s.temporal, id, contract.AdvanceClockRequest{Months: 1}); err != nil {
				b.Fatal(err)
			}
			months++
		}
		monthsUntil := func(status contracts.Status) {
			for answer.Status != status {
				month()
			}
		}
		monthsUntil(contracts.Ending)
		if answer, err = contract.ExtendContract(ctx, s.temporal, id, contracts.ExtendByTerm); err != nil {
			b.Fatal(err)
		}
		monthsUntil(contracts.Ending)
		monthsUntil(contracts.Monthly)
		month()
		month()
		if _, err := contract.BuyOutContract(ctx, s.temporal, id); err != nil {
			b.Fatal(err)
		}
		if err := s.temporal.GetWorkflow(ctx, contract.WorkflowID(id), "").Get(ctx, nil); err != nil {
			b.Fatal(err)
		}
		took := time.Since(began)

		runs, longest, total := 0, 0, 0
		for runID := run.GetRunID(); runID != ""; runs++ {
			events, next := s.history(ctx, b, contract.WorkflowID(id), runID)
			longest, total, runID = max(longest, events), total+events, next
		}
		printf("a 36-month contract with a 12-month extension, moved %d months one at a time in %s: %d runs, %d history events in all, the longest run %d events",
			months, took.Round(time.Millisecond), runs, total, longest)
		b.ReportMetric(float64(longest), "events-longest-run")
		b.ReportMetric(float64(runs), "runs")
	}
}

// history counts the events of a run and names the run that continued it
// ("" for none).
func (s *stack) history(ctx context.Context, b *testing.B, workflowID, runID string) (events int, next string) {
	b.Helper()
	iter := s.temporal.GetWorkflowHistory(ctx, workflowID, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		e, err := iter.Next()
		if err != nil {
			b.Fatal(err)
		}
		events++
		if a := e.GetWorkflowExecutionContinuedAsNewEventAttributes(); a != nil {
			next = a.GetNewExecutionRunId()
		}
	}
	return events, next
}
