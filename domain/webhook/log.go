package webhook

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Endpoint is a webhook endpoint as its seller reads it: everything but
// its secrets.
type Endpoint struct {
	ID          uuid.UUID
	URL         string
	Events      []string
	Description string
	// DisabledAt is set while the endpoint is disabled, with the reason.
	DisabledAt     *time.Time
	DisabledReason *string
	// PreviousSecretExpiresAt is when the secret the last rotation
	// replaced stops signing; nil when no previous secret signs.
	PreviousSecretExpiresAt *time.Time
	CreatedAt               time.Time
	UpdatedAt               time.Time
}

// EndpointOf is a stored endpoint as its seller reads it.
func EndpointOf(r dbgen.WebhookEndpoint) Endpoint {
	e := Endpoint{
		ID: r.ID, URL: r.Url, Events: r.Events, Description: r.Description,
		DisabledAt: r.DisabledAt, DisabledReason: r.DisabledReason, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
	if r.PreviousSecretExpiresAt != nil && r.PreviousSecret != nil {
		e.PreviousSecretExpiresAt = r.PreviousSecretExpiresAt
	}
	return e
}

// LoggedEvent is an event of a seller's log with its deliveries, one per
// endpoint and run, and, when they were read, every attempt.
type LoggedEvent struct {
	ID         uuid.UUID
	Type       string
	ObjectID   uuid.UUID
	Payload    []byte
	CreatedAt  time.Time
	Deliveries []Delivery
	// Attempts is nil unless the attempts were read.
	Attempts []Attempt
}

// Delivery is where the delivery of an event to one endpoint stands.
type Delivery struct {
	EndpointID    uuid.UUID
	Status        string
	Run           int32
	Attempts      int32
	LastAttemptAt *time.Time
	DeliveredAt   *time.Time
}

// Attempt is one try of a delivery and what the endpoint answered.
type Attempt struct {
	EndpointID      uuid.UUID
	Run             int32
	Attempt         int32
	StartedAt       time.Time
	Outcome         string
	StatusCode      *int32
	LatencyMs       *int32
	ErrorClass      *string
	ResponseExcerpt *string
}

// LoggedEventOf is a stored event with its deliveries and, unless nil, its
// attempts.
func LoggedEventOf(ev dbgen.Event, deliveries []dbgen.WebhookDelivery, attempts []dbgen.WebhookAttempt) LoggedEvent {
	out := LoggedEvent{
		ID: ev.ID, Type: ev.Type, ObjectID: ev.ObjectID, Payload: ev.Payload, CreatedAt: ev.CreatedAt,
		Deliveries: make([]Delivery, len(deliveries)),
	}
	for i, d := range deliveries {
		out.Deliveries[i] = Delivery{
			EndpointID: d.EndpointID, Status: d.Status, Run: d.Run, Attempts: d.Attempts,
			LastAttemptAt: d.LastAttemptAt, DeliveredAt: d.DeliveredAt,
		}
	}
	if attempts != nil {
		out.Attempts = make([]Attempt, len(attempts))
		for i, a := range attempts {
			out.Attempts[i] = Attempt{
				EndpointID: a.EndpointID, Run: a.Run, Attempt: a.Attempt, StartedAt: a.StartedAt, Outcome: a.Outcome,
				StatusCode: a.StatusCode, LatencyMs: a.LatencyMs, ErrorClass: a.ErrorClass, ResponseExcerpt: a.ResponseExcerpt,
			}
		}
	}
	return out
}
