package order

import (
	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

// StartOptions start the workflow of an order, searchable in the Temporal
// UI by seller, status and the reference of its offer. An order has one
// workflow: starting it again finds the running one, and never starts a
// second after it ended.
func StartOptions(orderID, sellerID uuid.UUID, reference string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID:                       WorkflowID(orderID),
		TaskQueue:                TaskQueue,
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			searchattr.SellerID.ValueSet(sellerID.String()),
			searchattr.Status.ValueSet(string(orders.Created)),
			searchattr.SellerOfferReference.ValueSet(reference),
		),
	}
}
