package offer

import (
	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

// StartOptions start the workflow of an offer, searchable in the Temporal
// UI by seller, status and reference. An offer has one workflow: starting
// it again finds the running one, and never starts a second after it ended.
func StartOptions(offerID, sellerID uuid.UUID, reference string) client.StartWorkflowOptions {
	return client.StartWorkflowOptions{
		ID:                       WorkflowID(offerID),
		TaskQueue:                TaskQueue,
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			searchattr.SellerID.ValueSet(sellerID.String()),
			searchattr.Status.ValueSet(string(offers.Created)),
			searchattr.SellerOfferReference.ValueSet(reference),
		),
	}
}
