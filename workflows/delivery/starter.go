package delivery

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/webhook"
)

// Starter starts delivery workflows for the webhook dispatcher.
type Starter struct {
	Client client.Client
}

// NewDispatcher is a webhook dispatcher whose deliveries run as this
// package's workflows.
func NewDispatcher(store *db.Store, c client.Client, cfg config.WebhooksConfig) *webhook.Dispatcher {
	return webhook.NewDispatcher(store, Starter{Client: c}, cfg)
}

// StartDelivery starts the workflow of a delivery run: a first run only if
// the delivery never had one, a redelivery unless one is running.
func (s Starter) StartDelivery(ctx context.Context, run webhook.DeliveryRun, redelivery bool) error {
	reuse := enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE
	if redelivery {
		reuse = enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE
	}
	_, err := s.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                                       WorkflowID(run.EventID, run.EndpointID),
		TaskQueue:                                TaskQueue,
		WorkflowIDReusePolicy:                    reuse,
		WorkflowIDConflictPolicy:                 enums.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		// When this process also runs a webhooks worker on the same client
		// (tenure dev, activities that emit events), the first workflow
		// task comes back with the start: one round trip less.
		EnableEagerStart: true,
	}, Deliver, run)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return fmt.Errorf("%w: %w", webhook.ErrDeliveryStarted, err)
	}
	return err
}
