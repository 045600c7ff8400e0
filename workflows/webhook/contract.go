// Package webhook is the delivery workflow: it sends one event to one
// endpoint, one activity per HTTP attempt, sleeping between attempts as the
// retry schedule says, until the endpoint answers 2xx, the attempts run out
// or the endpoint is disabled or deleted.
package webhook

import (
	"time"

	"github.com/google/uuid"
)

// TaskQueue is the queue delivery workflows and their activities run on.
const TaskQueue = "webhooks"

// WorkflowID names the delivery of one event to one endpoint; starting it
// twice finds the first run instead of delivering again.
func WorkflowID(eventID, endpointID uuid.UUID) string {
	return "webhook/" + eventID.String() + "/" + endpointID.String()
}

// Delivery statuses, as stored per (event, endpoint) and returned by the API.
const (
	// StatusPending is a delivery whose run has not ended.
	StatusPending = "pending"
	// StatusDelivered is a delivery the endpoint acknowledged with 2xx.
	StatusDelivered = "delivered"
	// StatusFailed is a delivery whose attempts ran out (or that got 410).
	StatusFailed = "failed"
	// StatusCancelled is a delivery stopped because its endpoint was
	// disabled or deleted.
	StatusCancelled = "cancelled"
)

// DeliveryInput says what to deliver and when to try. Delays are computed
// (jitter included) when the delivery is dispatched, so the workflow stays
// deterministic whatever the configuration says later.
type DeliveryInput struct {
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

// DeliveryResult is how the delivery ended.
type DeliveryResult struct {
	Status   string
	Attempts int
}

// Activity names, registered by the worker with these exact names.
const (
	// SendAttemptActivity checks the endpoint, claims the attempt and sends
	// the signed request once.
	SendAttemptActivity = "webhook.SendAttempt"
	// RecordAttemptActivity records an attempt's outcome and settles the
	// delivery (and disables the endpoint on 410).
	RecordAttemptActivity = "webhook.RecordAttempt"
)

// AttemptInput names one attempt of one delivery run.
type AttemptInput struct {
	EventID    uuid.UUID
	EndpointID uuid.UUID
	Run        int32
	Attempt    int32
	Timeout    time.Duration
}

// Verdict is what an attempt means for the delivery.
type Verdict string

const (
	// VerdictDelivered ends the delivery: the endpoint answered 2xx.
	VerdictDelivered Verdict = "delivered"
	// VerdictFailed is a failed attempt; the next one follows the schedule.
	VerdictFailed Verdict = "failed"
	// VerdictGone ends the delivery: the endpoint answered 410 and is disabled.
	VerdictGone Verdict = "gone"
	// VerdictStopped ends the delivery without sending: the endpoint is
	// disabled or deleted, or the delivery was settled elsewhere.
	VerdictStopped Verdict = "stopped"
)

// AttemptOutcome is what one attempt did.
type AttemptOutcome struct {
	Verdict     Verdict
	AttemptedAt time.Time
	StatusCode  int
	Latency     time.Duration
	// ErrorClass says why a failed attempt failed (timeout,
	// connection_refused, http_status, ...); empty when delivered.
	ErrorClass string
	// Excerpt is the beginning of the response body.
	Excerpt string
}

// RecordInput is an attempt and its outcome; Last says no attempt follows.
type RecordInput struct {
	Attempt AttemptInput
	Outcome AttemptOutcome
	Last    bool
}
