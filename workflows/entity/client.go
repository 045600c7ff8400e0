package entity

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/idempotency"
)

// UpdateTimeout bounds how long a caller waits for an entity workflow to
// accept and complete an update (persisting included) before it gives up.
const UpdateTimeout = 30 * time.Second

// Update sends an update to an entity workflow and waits until it
// completed, so a read right after it sees the change. result may be nil.
func Update(ctx context.Context, c client.Client, workflowID, name string, result any, args ...any) error {
	ctx, cancel := context.WithTimeout(ctx, UpdateTimeout)
	defer cancel()
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   workflowID,
		UpdateName:   name,
		UpdateID:     idempotency.UpdateID(ctx),
		Args:         args,
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return err
	}
	return h.Get(ctx, result)
}

// StatusRefusal is a change the entity's status does not allow, in the
// spec's words ("offers with status=created cannot be declined").
type StatusRefusal struct{ Message string }

func (r *StatusRefusal) Error() string { return r.Message }

// ErrUnavailable says the entity's workflow did not answer in time; the
// change may still happen.
var ErrUnavailable = errors.New("the workflow did not answer in time")

// Refusal is the application error an entity workflow refused an update
// with (its validator, or an activity's non-retryable error), if err is one.
func Refusal(err error) (*temporal.ApplicationError, bool) {
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		return app, true
	}
	return nil, false
}

// Ended reports whether err says the workflow does not run (any more): an
// entity in a final status has no workflow to change it.
func Ended(err error) bool {
	var notFound *serviceerror.NotFound
	return errors.As(err, &notFound)
}

// TimedOut reports whether the workflow did not answer in UpdateTimeout
// (no worker polling, for instance).
func TimedOut(err error) bool {
	var deadline *serviceerror.DeadlineExceeded
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &deadline)
}
