package orders

import "github.com/google/uuid"

// Status is where an order is in its lifecycle.
type Status string

// The statuses of the spec's order transition table.
const (
	Created            Status = "created"
	Acknowledged       Status = "acknowledged"
	Confirmed          Status = "confirmed"
	PartiallyFulfilled Status = "partially_fulfilled"
	Completed          Status = "completed"
	Canceled           Status = "canceled"
	Rejected           Status = "rejected"
)

// EventSource identifies the event announcing that an order reached a
// status: order/{id}/{status}, which is its workflow's id and the status.
// Event ids derive from it (webhook.EventID), so a retried change records
// its event once.
func EventSource(orderID uuid.UUID, status Status) string {
	return "order/" + orderID.String() + "/" + string(status)
}
