// Package entity holds what the entity workflows (offers, orders) share:
// one change at a time, status-guarded updates, the status search
// attribute, and continuing as new without dropping updates.
package entity

import (
	"context"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/workflows/call"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

// persistOptions suit persistence activities: a transaction is quick, and
// a failure (database restart) is retried with backoff.
var persistOptions = workflow.LocalActivityOptions{
	StartToCloseTimeout: 10 * time.Second,
	RetryPolicy: &temporal.RetryPolicy{
		InitialInterval:    200 * time.Millisecond,
		BackoffCoefficient: 2,
		MaximumInterval:    30 * time.Second,
	},
}

// Persist runs a persistence activity (a short, idempotent transaction) as
// a local activity: inside the workflow task that needs it, so a change
// costs one workflow task instead of a round trip through an activity task
// queue. A worker that dies mid-way leaves the workflow task to time out and
// run again elsewhere, repeating the activity, which is idempotent.
func Persist[In any](ctx workflow.Context, fn func(context.Context, In) error, in In) error {
	return call.LocalEffect(workflow.WithLocalActivityOptions(ctx, persistOptions), fn, in)
}

// PersistResult is Persist for an activity with a result.
func PersistResult[In, Out any](ctx workflow.Context, fn func(context.Context, In) (Out, error), in In) (Out, error) {
	return call.Local(workflow.WithLocalActivityOptions(ctx, persistOptions), fn, in)
}

// Guard runs an entity's changes one at a time. Update validators check a
// change against the status before it is recorded; an update that then
// waited for another one is checked again before it acts, so of two racing
// updates exactly one wins.
type Guard struct {
	lock workflow.Mutex
}

// NewGuard makes the guard of one workflow run.
func NewGuard(ctx workflow.Context) *Guard {
	return &Guard{lock: workflow.NewMutex(ctx)}
}

// Do runs change under the lock if validate still accepts it.
func (g *Guard) Do(ctx workflow.Context, validate func() error, change func(ctx workflow.Context) error) error {
	if err := g.lock.Lock(ctx); err != nil {
		return err
	}
	defer g.lock.Unlock()
	if err := validate(); err != nil {
		return err
	}
	return change(ctx)
}

// PublishStatus shows the entity's status in its search attributes.
func PublishStatus(ctx workflow.Context, status string) error {
	return workflow.UpsertTypedSearchAttributes(ctx, searchattr.Status.ValueSet(status))
}

// HandlersFinished waits until no update handler is running, so that the
// run can end or continue as new without abandoning one.
func HandlersFinished(ctx workflow.Context) error {
	return workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) })
}

// ContinueAsNewSuggested reports whether the history has grown enough for
// the server to suggest a fresh run.
func ContinueAsNewSuggested(ctx workflow.Context) bool {
	return workflow.GetInfo(ctx).GetContinueAsNewSuggested()
}

// ContinueAsNew ends the run, once its updates are done, with a fresh run
// of wf started with input (which carries the state).
func ContinueAsNew(ctx workflow.Context, wf any, input func() any) error {
	if err := HandlersFinished(ctx); err != nil {
		return err
	}
	return workflow.NewContinueAsNewError(ctx, wf, input())
}
