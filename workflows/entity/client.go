package entity

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/workflows/searchattr"
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

// ErrUnavailable says the entity's workflow did not answer in time; the
// change may still happen.
var ErrUnavailable = errors.New("the workflow did not answer in time")

// RefusalOf is the refusal an entity workflow refused an update with (its
// validator, or an activity's non-retryable error of a refusal kind), if
// err is one. Any other failure is not the caller's to see.
func RefusalOf(err error) (*refusal.Error, bool) {
	var app *temporal.ApplicationError
	if errors.As(err, &app) && refusal.Known(app.Type()) {
		return &refusal.Error{Kind: refusal.Kind(app.Type()), Message: app.Message()}, true
	}
	return nil, false
}

// Ended reports whether err says the workflow does not run (any more): an
// entity in a final status has no workflow to change it.
func Ended(err error) bool {
	var notFound *serviceerror.NotFound
	return errors.As(err, &notFound)
}

// RanBefore reports whether err refuses to start a workflow because one
// of its id ran and ended: an entity's workflow never starts twice.
func RanBefore(err error) bool {
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	return errors.As(err, &started)
}

// TimedOut reports whether the workflow did not answer in UpdateTimeout
// (no worker polling, for instance).
func TimedOut(err error) bool {
	var deadline *serviceerror.DeadlineExceeded
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &deadline)
}

// Refuse is the error an update's validator or handler refuses a change
// with; callers of Update get the refusal back from RefusalOf.
func Refuse(r *refusal.Error) error {
	return temporal.NewApplicationError(r.Message, string(r.Kind))
}

// StartOptions start the workflow of an entity, searchable in the Temporal
// UI by seller, status and the offer's reference. An entity has one
// workflow: starting it again finds the running one, and never starts a
// second after it ended.
func StartOptions(workflowID, taskQueue string, sellerID uuid.UUID, status, reference string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID:                       workflowID,
		TaskQueue:                taskQueue,
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			searchattr.SellerID.ValueSet(sellerID.String()),
			searchattr.Status.ValueSet(status),
			searchattr.SellerOfferReference.ValueSet(reference),
		),
	}
}
