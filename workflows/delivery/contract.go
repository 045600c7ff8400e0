// Package delivery is the workflow that delivers one webhook event to one
// endpoint: one activity per HTTP attempt, sleeping between attempts as the
// retry schedule says, until the endpoint answers 2xx, the attempts run out
// or the endpoint is disabled or deleted. The webhook package records and
// dispatches events; activities.Deliveries sends and records the attempts.
package delivery

import (
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/webhook"
)

// TaskQueue is the queue delivery workflows and their activities run on.
const TaskQueue = "webhooks"

// WorkflowID names the delivery of one event to one endpoint; starting it
// twice finds the first run instead of delivering again.
func WorkflowID(eventID, endpointID uuid.UUID) string {
	return webhook.DeliveryKey(eventID, endpointID)
}

// Result is how the delivery ended: a webhook.Delivery* status and the
// attempts it took.
type Result struct {
	Status   string
	Attempts int
}
