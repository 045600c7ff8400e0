package webhook

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
)

// Delivery statuses, as stored per (event, endpoint) and returned by the API.
const (
	// DeliveryPending is a delivery whose run has not ended.
	DeliveryPending = "pending"
	// DeliveryDelivered is a delivery the endpoint acknowledged with 2xx.
	DeliveryDelivered = "delivered"
	// DeliveryFailed is a delivery whose attempts ran out (or that got 410).
	DeliveryFailed = "failed"
	// DeliveryCancelled is a delivery stopped because its endpoint was
	// disabled or deleted.
	DeliveryCancelled = "cancelled"
)

// DeliveryRun is one run of the delivery of an event to an endpoint: what
// its workflow delivers and when it tries. Delays are computed (jitter
// included) when the run is dispatched, so the workflow stays
// deterministic whatever the configuration says later.
type DeliveryRun struct {
	EventID    uuid.UUID
	EndpointID uuid.UUID
	// Run is 1 for the first delivery and grows with each redelivery.
	Run int32
	// Delays holds the wait before each attempt; its length is the number
	// of attempts.
	Delays []time.Duration
	// AttemptTimeout bounds one HTTP attempt.
	AttemptTimeout time.Duration
}

// DeliveryKey names the delivery of one event to one endpoint; it is the
// delivery workflow's id and seeds the jitter of its delays.
func DeliveryKey(eventID, endpointID uuid.UUID) string {
	return "webhook/" + eventID.String() + "/" + endpointID.String()
}

// DeliveryStarter starts the workflow of a delivery run. The delivery
// workflow's package implements it; the dispatcher is given one at wiring.
type DeliveryStarter interface {
	// StartDelivery starts the run's workflow. A first run is refused with
	// ErrDeliveryStarted when the delivery ever had a workflow; a
	// redelivery when the delivery's workflow is still running.
	StartDelivery(ctx context.Context, run DeliveryRun, redelivery bool) error
}

// ErrDeliveryStarted says a delivery's workflow exists already.
var ErrDeliveryStarted = errors.New("the delivery's workflow exists already")
