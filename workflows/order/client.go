package order

import (
	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/workflows/entity"
)

// StartOptions start the workflow of an order in its first status,
// findable by the reference of its offer.
func StartOptions(orderID, sellerID uuid.UUID, reference string) client.StartWorkflowOptions {
	return entity.StartOptions(WorkflowID(orderID), TaskQueue, sellerID, string(Opening().To), reference)
}
