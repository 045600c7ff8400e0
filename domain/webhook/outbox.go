package webhook

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// NewEvent is an event to record in the outbox.
type NewEvent struct {
	// ID is optional: pass a deterministic id (see EventID) so that a
	// retried activity records the same event instead of a second one;
	// zero makes a new UUIDv7.
	ID       uuid.UUID
	SellerID uuid.UUID
	Type     EventType
	// ObjectID is the offer or order the event is about.
	ObjectID uuid.UUID
	// Payload is the body sent to endpoints: the bare offer or order JSON,
	// exactly as GET returns it. It is stored and sent byte for byte.
	Payload json.RawMessage
}

// eventNamespace scopes deterministic event ids to Tenure.
var eventNamespace = uuid.MustParse("6f1d3c1e-4b0a-5c7e-9d3f-2a8b7c6d5e4f")

// EventID derives a stable event id from what identifies the change that
// causes it, such as the entity workflow id and the transition
// ("offer/<id>/accepted"): the same source always gives the same id.
func EventID(source string) uuid.UUID {
	return uuid.NewSHA1(eventNamespace, []byte(source))
}

// Record inserts an event into the outbox inside the caller's transaction,
// so the event exists exactly when the change that causes it is committed.
// Recording an id that exists already changes nothing and returns that id.
// After the commit, hand the id to Dispatcher.Dispatch; if that never
// happens (a crash), the relay of a worker dispatches it.
func Record(ctx context.Context, q *dbgen.Queries, e NewEvent) (uuid.UUID, error) {
	return record(ctx, q, e, nil)
}

func record(ctx context.Context, q *dbgen.Queries, e NewEvent, endpointID *uuid.UUID) (uuid.UUID, error) {
	if !IsEventType(e.Type) {
		return uuid.Nil, fmt.Errorf("recording an event: unknown event type %q", e.Type)
	}
	if e.SellerID == uuid.Nil || e.ObjectID == uuid.Nil {
		return uuid.Nil, fmt.Errorf("recording a %s event: seller and object ids are required", e.Type)
	}
	if !json.Valid(e.Payload) {
		return uuid.Nil, fmt.Errorf("recording a %s event: the payload is not valid JSON", e.Type)
	}
	id := e.ID
	if id == uuid.Nil {
		id = uuid.Must(uuid.NewV7())
	}
	err := q.InsertEvent(ctx, dbgen.InsertEventParams{
		ID: id, SellerID: e.SellerID, Type: e.Type, ObjectID: e.ObjectID, EndpointID: endpointID, Payload: e.Payload,
		TraceParent: traceParent(ctx),
	})
	if err != nil {
		return uuid.Nil, fmt.Errorf("recording a %s event: %w", e.Type, err)
	}
	return id, nil
}
