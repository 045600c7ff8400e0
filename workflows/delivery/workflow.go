package delivery

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/workflows/call"
)

// Deliver sends one event to one endpoint following the retry schedule.
// Each attempt is one execution of SendAttempt, whose retry policy only
// covers failures before the request goes out (the activity claims each
// attempt in the database, so a retried execution never sends twice); the
// workflow alone decides when the next attempt happens: after the
// schedule's wait, or at once after an attempt its worker's death
// interrupted.
func Deliver(ctx workflow.Context, in webhook.DeliveryRun) (Result, error) {
	d := &delivery{input: in}
	d.setup(ctx)
	return d.run()
}

type delivery struct {
	input     webhook.DeliveryRun
	ctx       workflow.Context
	sendCtx   workflow.Context
	recordCtx workflow.Context
}

// a names the delivery activities; the worker registers the real ones.
var a *activities.Deliveries

// infrastructureRetry retries activities that failed for reasons such as an
// unreachable database, without limit: the delivery must not be lost.
var infrastructureRetry = &temporal.RetryPolicy{
	InitialInterval:    time.Second,
	BackoffCoefficient: 2,
	MaximumInterval:    30 * time.Second,
}

// sendRetry is infrastructureRetry starting sooner: an attempt whose
// worker died is retried 200 ms after its heartbeat stopped, not 1 s.
var sendRetry = &temporal.RetryPolicy{
	InitialInterval:    200 * time.Millisecond,
	BackoffCoefficient: infrastructureRetry.BackoffCoefficient,
	MaximumInterval:    infrastructureRetry.MaximumInterval,
}

func (d *delivery) setup(ctx workflow.Context) {
	d.ctx = ctx
	d.sendCtx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// The HTTP attempt plus the database work around it.
		StartToCloseTimeout: d.input.AttemptTimeout + 15*time.Second,
		// The attempt heartbeats while it runs (activities.Deliveries):
		// the server notices a worker that died mid-attempt after this
		// long, not at the start-to-close timeout, and the retry runs on
		// another worker.
		HeartbeatTimeout: sendHeartbeatTimeout,
		RetryPolicy:      sendRetry,
	})
	// Recording is a short, idempotent database write: a local activity,
	// run inside the workflow task, saves a round trip through the server.
	d.recordCtx = workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         infrastructureRetry,
	})
}

// sendHeartbeatTimeout is how long the server waits for a heartbeat of a
// running attempt before it counts its worker as dead and retries the
// attempt elsewhere: the SDK sends a heartbeat at most every 80 % of it,
// so a dead worker's attempt is retried between 0.4 s and 2 s after its
// death plus the retry's first interval (sendRetry).
const sendHeartbeatTimeout = 2 * time.Second

func (d *delivery) run() (Result, error) {
	interrupted := false
	for i, delay := range d.input.Delays {
		if delay > 0 && !(interrupted && d.resumesAtOnce()) {
			if err := workflow.Sleep(d.ctx, delay); err != nil {
				return Result{}, err
			}
		}
		attempt := activities.AttemptInput{
			EventID:    d.input.EventID,
			EndpointID: d.input.EndpointID,
			Run:        d.input.Run,
			Attempt:    int32(i + 1),
			Timeout:    d.input.AttemptTimeout,
		}
		outcome, err := call.Activity(d.sendCtx, a.SendAttempt, attempt)
		if err != nil {
			return Result{}, err
		}
		last := i == len(d.input.Delays)-1
		record := activities.RecordInput{Attempt: attempt, Outcome: outcome, Last: last}
		if err := call.LocalEffect(d.recordCtx, a.RecordAttempt, record); err != nil {
			return Result{}, err
		}
		interrupted = outcome.ErrorClass == webhook.ClassInterrupted
		switch outcome.Verdict {
		case activities.VerdictDelivered:
			return Result{Status: webhook.DeliveryDelivered, Attempts: i + 1}, nil
		case activities.VerdictGone:
			return Result{Status: webhook.DeliveryFailed, Attempts: i + 1}, nil
		case activities.VerdictStopped:
			return Result{Status: webhook.DeliveryCancelled, Attempts: i}, nil
		}
	}
	return Result{Status: webhook.DeliveryFailed, Attempts: len(d.input.Delays)}, nil
}

// resumeChange names the change that sends the attempt after an
// interrupted one (its worker died while sending) at once instead of after
// the schedule's wait: the endpoint did not fail, the worker did. Runs
// recorded before it replay with the wait.
const resumeChange = "resume-interrupted"

// resumesAtOnce reports whether this run sends the attempt after an
// interrupted one without waiting.
func (d *delivery) resumesAtOnce() bool {
	return workflow.GetVersion(d.ctx, resumeChange, workflow.DefaultVersion, 1) >= 1
}
