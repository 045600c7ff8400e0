// Package order is the entity workflow of one order: from its creation by
// an accepted offer until it is completed, canceled or rejected, every
// status change of the order happens here.
package order

import (
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/orders"
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

// ShipRequest is the argument of the ship update: a shipment.
type ShipRequest struct {
	Shipment orders.Shipment
}

// Result is how the workflow ended.
type Result struct {
	Status orders.Status
}
