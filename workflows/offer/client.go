package offer

import (
	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/workflows/entity"
)

// StartOptions start the workflow of an offer in its first status.
func StartOptions(offerID, sellerID uuid.UUID, reference string) client.StartWorkflowOptions {
	return entity.StartOptions(WorkflowID(offerID), TaskQueue, sellerID, string(Transitions.Target(Create)), reference)
}
