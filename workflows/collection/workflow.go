package collection

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/workflows/call"
)

// a and p name the collection and payout activities; the worker
// registers the real ones.
var (
	a *activities.Collections
	p *activities.Payouts
)

// Run is the run of a date: submit, then write the files.
func Run(ctx workflow.Context, in Input) (Result, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// A run of a hundred thousand collections writes its files in
		// well under a minute; the margin covers a slow database.
		StartToCloseTimeout: 30 * time.Minute,
		// The steps beat every two seconds: a step whose worker died is
		// retried on another within seconds.
		HeartbeatTimeout: 10 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute,
		},
	})
	planned, err := call.Activity(ctx, a.SubmitCollections, activities.CollectionRunDate{RunDate: in.RunDate})
	if err != nil {
		return Result{}, err
	}
	written, err := call.Activity(ctx, a.WriteCollectionFiles, planned)
	if err != nil {
		return Result{}, err
	}
	return Result{
		CollectionDate: planned.CollectionDate, Submitted: planned.Submitted,
		Files: written.Files, Transactions: written.Transactions,
	}, nil
}

// Daily is what the Schedule starts: the run of today in the location,
// as a child under the run's own id, so a day started by hand already is
// not run twice; then the day's payout batch, which pays nothing twice
// either.
func Daily(ctx workflow.Context, in DailyInput) (DailyResult, error) {
	loc, err := time.LoadLocation(in.Timezone)
	if err != nil {
		return DailyResult{}, temporal.NewNonRetryableApplicationError(err.Error(), "BadTimezone", err)
	}
	today := civil.DateOf(workflow.Now(ctx).In(loc))
	child := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: WorkflowID(today)})
	var out DailyResult
	err = workflow.ExecuteChildWorkflow(child, Run, Input{RunDate: today}).Get(ctx, &out.Collections)
	if err != nil && !temporal.IsWorkflowExecutionAlreadyStartedError(err) {
		return out, err
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 5 * time.Minute},
	})
	out.Payouts, err = call.Activity(ctx, p.RunPayouts, activities.PayoutBatchDate{Day: today})
	return out, err
}
