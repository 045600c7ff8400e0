package order

import (
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// The triggers of an order's transitions. An update's name is its
// trigger's: the API and the simulations send it, the workflow's handler
// and log lines use it, and the row of Transitions declares what it does.
var (
	// Open is the acceptance of the order's offer, which creates it.
	Open = statemachine.Trigger{Name: "open"}
	// Acknowledge is POST /v1/orders/{id}/acknowledge.
	Acknowledge = statemachine.Trigger{Name: "acknowledge", Update: "acknowledge", Verb: "acknowledged"}
	// Accept is POST /v1/orders/{id}/accept, which activates the rental
	// contracts; the order is then confirmed.
	Accept = statemachine.Trigger{Name: "accept", Update: "accept", Verb: "accepted"}
	// Reject is POST /v1/orders/{id}/reject.
	Reject = statemachine.Trigger{Name: "reject", Update: "reject", Verb: "rejected"}
	// ShipSome and ShipAll are POST /v1/shipment: whether items are left
	// to ship is what the shipping activity finds.
	ShipSome = statemachine.Trigger{Name: "ship (items left)", Update: "ship", Verb: "shipped"}
	ShipAll  = statemachine.Trigger{Name: "ship (every item)", Update: "ship", Verb: "shipped"}
	// Cancel is the cancellation by the service or the customer
	// (mark_order_cancelled).
	Cancel = statemachine.Trigger{Name: "cancel", Update: "cancel", Verb: "canceled"}
)

// Transitions is the order's state machine: the spec's table, with the
// choices of docs/decisions/0050-order-transitions.md where the spec is
// silent (shipping from confirmed and partially_fulfilled, cancelling until
// confirmed).
var Transitions = statemachine.Table[orders.Status]{Noun: "orders", Rows: []statemachine.Transition[orders.Status]{
	{From: "", Trigger: Open, To: orders.Created, Event: webhook.OrderCreated},
	{From: orders.Created, Trigger: Acknowledge, To: orders.Acknowledged},
	{From: orders.Created, Trigger: Accept, To: orders.Confirmed},
	{From: orders.Acknowledged, Trigger: Accept, To: orders.Confirmed},
	{From: orders.Created, Trigger: Reject, To: orders.Rejected},
	{From: orders.Acknowledged, Trigger: Reject, To: orders.Rejected},
	{From: orders.Confirmed, Trigger: ShipSome, To: orders.PartiallyFulfilled},
	{From: orders.Confirmed, Trigger: ShipAll, To: orders.Completed, Event: webhook.OrderCompleted},
	{From: orders.PartiallyFulfilled, Trigger: ShipSome, To: orders.PartiallyFulfilled},
	{From: orders.PartiallyFulfilled, Trigger: ShipAll, To: orders.Completed, Event: webhook.OrderCompleted},
	{From: orders.Created, Trigger: Cancel, To: orders.Canceled, Event: webhook.OrderCanceled},
	{From: orders.Acknowledged, Trigger: Cancel, To: orders.Canceled, Event: webhook.OrderCanceled},
	{From: orders.Confirmed, Trigger: Cancel, To: orders.Canceled, Event: webhook.OrderCanceled},
}}

// Opening is the row that creates an order: the status it starts in and
// the event announcing it, which the offer's acceptance records.
func Opening() statemachine.Transition[orders.Status] { return Transitions.Must("", Open) }

// Final reports whether an order's status is its last: completed,
// canceled or rejected.
func Final(s orders.Status) bool { return Transitions.Final(s) }
