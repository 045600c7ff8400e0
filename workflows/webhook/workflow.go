package webhook

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// Deliver sends one event to one endpoint following the retry schedule.
// Each attempt is one execution of SendAttemptActivity, whose retry policy
// only covers failures before the request goes out (the activity claims
// each attempt in the database, so a retried execution never sends twice);
// the workflow alone decides when the next attempt happens.
func Deliver(ctx workflow.Context, in DeliveryInput) (DeliveryResult, error) {
	d := &delivery{input: in}
	d.setup(ctx)
	return d.run()
}

type delivery struct {
	input     DeliveryInput
	ctx       workflow.Context
	sendCtx   workflow.Context
	recordCtx workflow.Context
}

// infrastructureRetry retries activities that failed for reasons such as an
// unreachable database, without limit: the delivery must not be lost.
var infrastructureRetry = &temporal.RetryPolicy{
	InitialInterval:    time.Second,
	BackoffCoefficient: 2,
	MaximumInterval:    30 * time.Second,
}

func (d *delivery) setup(ctx workflow.Context) {
	d.ctx = ctx
	d.sendCtx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// The HTTP attempt plus the database work around it.
		StartToCloseTimeout: d.input.AttemptTimeout + 15*time.Second,
		RetryPolicy:         infrastructureRetry,
	})
	// Recording is a short, idempotent database write: a local activity,
	// run inside the workflow task, saves a round trip through the server.
	d.recordCtx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         infrastructureRetry,
	})
}

func (d *delivery) run() (DeliveryResult, error) {
	for i, delay := range d.input.Delays {
		if delay > 0 {
			if err := workflow.Sleep(d.ctx, delay); err != nil {
				return DeliveryResult{}, err
			}
		}
		attempt := AttemptInput{
			EventID:    d.input.EventID,
			EndpointID: d.input.EndpointID,
			Run:        d.input.Run,
			Attempt:    int32(i + 1),
			Timeout:    d.input.AttemptTimeout,
		}
		var outcome AttemptOutcome
		if err := workflow.ExecuteActivity(d.sendCtx, SendAttemptActivity, attempt).Get(d.ctx, &outcome); err != nil {
			return DeliveryResult{}, err
		}
		last := i == len(d.input.Delays)-1
		record := RecordInput{Attempt: attempt, Outcome: outcome, Last: last}
		if err := workflow.ExecuteLocalActivity(d.recordCtx, RecordAttemptActivity, record).Get(d.ctx, nil); err != nil {
			return DeliveryResult{}, err
		}
		switch outcome.Verdict {
		case VerdictDelivered:
			return DeliveryResult{Status: StatusDelivered, Attempts: i + 1}, nil
		case VerdictGone:
			return DeliveryResult{Status: StatusFailed, Attempts: i + 1}, nil
		case VerdictStopped:
			return DeliveryResult{Status: StatusCancelled, Attempts: i}, nil
		}
	}
	return DeliveryResult{Status: StatusFailed, Attempts: len(d.input.Delays)}, nil
}
