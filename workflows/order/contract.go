// Package order is the entity workflow of one order: from its creation by
// an accepted offer until it is completed, canceled or rejected, every
// status change of the order happens here.
package order

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/refusal"
)

// TaskQueue is the queue order workflows and their activities run on.
const TaskQueue = "orders"

// WorkflowID names the workflow of one order.
func WorkflowID(orderID uuid.UUID) string { return "order/" + orderID.String() }

// Input starts an order workflow; the order's rows exist already (the
// offer's acceptance wrote them). State is the status to start from.
type Input struct {
	OrderID  uuid.UUID
	SellerID uuid.UUID
	State    State
}

// State is what the workflow knows between events; it survives
// continue-as-new.
type State struct {
	Status orders.Status
}

// Update names. Each is also the verb of the refusal texts.
const (
	AcknowledgeUpdate = "acknowledge"
	AcceptUpdate      = "accept"
	RejectUpdate      = "reject"
	ShipUpdate        = "ship"
	CancelUpdate      = "cancel"
)

// ShipRequest reports a shipment.
type ShipRequest struct {
	Shipment orders.Shipment
}

// Result is how the workflow ended.
type Result struct {
	Status orders.Status
}

// ErrStatus is the Temporal application error type of an update the
// order's status does not allow.
const ErrStatus = string(refusal.StatusNotAllowed)

// Refusal is the text for an update the status forbids, in the words of
// the offer refusals ("orders with status=confirmed cannot be rejected").
func Refusal(status orders.Status, update string) string {
	verbs := map[string]string{
		AcknowledgeUpdate: "acknowledged",
		AcceptUpdate:      "accepted",
		RejectUpdate:      "rejected",
		ShipUpdate:        "shipped",
		CancelUpdate:      "canceled",
	}
	return fmt.Sprintf("orders with status=%s cannot be %s", status, verbs[update])
}
