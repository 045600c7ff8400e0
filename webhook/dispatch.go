package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	delivery "github.com/tenurehq/tenure/workflows/webhook"
)

// ErrDeliveryRunning refuses a redelivery while a delivery of the event is
// still running.
var ErrDeliveryRunning = errors.New("a delivery of this event is still running")

// Dispatcher starts delivery workflows for recorded events.
type Dispatcher struct {
	store    *db.Store
	temporal client.Client
	schedule []time.Duration
	timeout  time.Duration
}

// NewDispatcher dispatches with the configured retry schedule (the wait
// before each attempt) and per-attempt timeout.
func NewDispatcher(store *db.Store, temporal client.Client, cfg config.WebhooksCfg) *Dispatcher {
	return &Dispatcher{store: store, temporal: temporal, schedule: cfg.RetrySchedule, timeout: cfg.AttemptTimeout}
}

// Dispatch starts, for each event, one delivery workflow per endpoint
// subscribed to it at this moment, and marks the event dispatched. Call it
// after the transaction that recorded the events has committed. It is safe
// to call more than once and concurrently with the relay: an event already
// dispatched, or being dispatched elsewhere, is skipped, and a delivery
// workflow that exists already is not started again. When it fails (say
// Temporal is unreachable) the events stay undispatched and the relay
// dispatches them later, so callers may log the error and carry on.
func (d *Dispatcher) Dispatch(ctx context.Context, eventIDs ...uuid.UUID) error {
	var errs []error
	for _, id := range eventIDs {
		err := d.store.InTx(ctx, func(q *dbgen.Queries) error {
			ev, err := q.LockUndispatchedEvent(ctx, id)
			if db.IsNotFound(err) {
				return nil
			}
			if err != nil {
				return err
			}
			return d.dispatchLocked(ctx, q, ev)
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("dispatching event %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// dispatchLocked dispatches an event whose row the transaction holds.
func (d *Dispatcher) dispatchLocked(ctx context.Context, q *dbgen.Queries, ev dbgen.Event) error {
	endpoints, err := d.recipients(ctx, q, ev)
	if err != nil {
		return err
	}
	for _, ep := range endpoints {
		err := q.CreateDelivery(ctx, dbgen.CreateDeliveryParams{EventID: ev.ID, EndpointID: ep.ID, SellerID: ev.SellerID})
		if err != nil {
			return err
		}
	}
	deliveries, err := q.ListEventDeliveries(ctx, ev.ID)
	if err != nil {
		return err
	}
	for _, dl := range deliveries {
		if dl.Status != delivery.StatusPending {
			continue
		}
		err := d.start(ctx, dl, enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE)
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if err != nil && !errors.As(err, &started) {
			return err
		}
	}
	return q.MarkEventDispatched(ctx, ev.ID)
}

// recipients are the endpoints an event goes to: its target endpoint for a
// ping, otherwise the seller's enabled endpoints subscribed to its type.
func (d *Dispatcher) recipients(ctx context.Context, q *dbgen.Queries, ev dbgen.Event) ([]dbgen.WebhookEndpoint, error) {
	if ev.EndpointID == nil {
		return q.ListSubscribedEndpoints(ctx, dbgen.ListSubscribedEndpointsParams{SellerID: ev.SellerID, Type: ev.Type})
	}
	ep, err := q.GetWebhookEndpointByID(ctx, *ev.EndpointID)
	if err != nil {
		return nil, err
	}
	if ep.DeletedAt != nil || ep.DisabledAt != nil {
		return nil, nil
	}
	return []dbgen.WebhookEndpoint{ep}, nil
}

// start starts the delivery workflow of one delivery run.
func (d *Dispatcher) start(ctx context.Context, dl dbgen.WebhookDelivery, reuse enums.WorkflowIdReusePolicy) error {
	id := delivery.WorkflowID(dl.EventID, dl.EndpointID)
	_, err := d.temporal.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:                                       id,
		TaskQueue:                                delivery.TaskQueue,
		WorkflowIDReusePolicy:                    reuse,
		WorkflowIDConflictPolicy:                 enums.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
		WorkflowExecutionErrorWhenAlreadyStarted: true,
		// When this process also runs a webhooks worker on the same client
		// (tenure dev, activities that emit events), the first workflow
		// task comes back with the start: one round trip less.
		EnableEagerStart: true,
	}, delivery.Deliver, delivery.DeliveryInput{
		EventID:        dl.EventID,
		EndpointID:     dl.EndpointID,
		Run:            dl.Run,
		Delays:         Delays(d.schedule, fmt.Sprintf("%s/%d", id, dl.Run)),
		AttemptTimeout: d.timeout,
	})
	return err
}

// Redeliver starts a new delivery run of a seller's event to every endpoint
// subscribed to it now, with the same webhook-id (the event id). It refuses
// with ErrDeliveryRunning while any delivery of the event is pending, and
// with ErrNotFound for an event the seller does not have.
func (d *Dispatcher) Redeliver(ctx context.Context, sellerID, eventID uuid.UUID) ([]dbgen.WebhookDelivery, error) {
	var runs []dbgen.WebhookDelivery
	err := d.store.InTx(ctx, func(q *dbgen.Queries) error {
		ev, err := q.GetEvent(ctx, dbgen.GetEventParams{ID: eventID, SellerID: sellerID})
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		existing, err := q.LockEventDeliveries(ctx, eventID)
		if err != nil {
			return err
		}
		for _, dl := range existing {
			if dl.Status == delivery.StatusPending {
				return ErrDeliveryRunning
			}
		}
		endpoints, err := d.recipients(ctx, q, ev)
		if err != nil {
			return err
		}
		for _, ep := range endpoints {
			dl, err := q.RestartDelivery(ctx, dbgen.RestartDeliveryParams{EventID: eventID, EndpointID: ep.ID, SellerID: sellerID})
			if err != nil {
				return err
			}
			err = d.start(ctx, dl, enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
			var started *serviceerror.WorkflowExecutionAlreadyStarted
			if errors.As(err, &started) {
				return ErrDeliveryRunning
			}
			if err != nil {
				return err
			}
			runs = append(runs, dl)
		}
		return q.MarkEventDispatched(ctx, eventID)
	})
	return runs, err
}

// pingPayload is the body of a ping event.
type pingPayload struct {
	EndpointID string    `json:"endpoint_id"`
	Message    string    `json:"message"`
	SentAt     time.Time `json:"sent_at"`
}

// Ping records a ping event for one of a seller's endpoints and dispatches
// it; it goes through the same delivery machinery as every event.
func (d *Dispatcher) Ping(ctx context.Context, sellerID, endpointID uuid.UUID) (uuid.UUID, error) {
	var eventID uuid.UUID
	err := d.store.InTx(ctx, func(q *dbgen.Queries) error {
		ep, err := q.GetWebhookEndpoint(ctx, dbgen.GetWebhookEndpointParams{ID: endpointID, SellerID: sellerID})
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if ep.DisabledAt != nil {
			return ErrEndpointDisabled
		}
		payload, _ := json.Marshal(pingPayload{
			EndpointID: endpointID.String(),
			Message:    "This is a test event from Tenure: your endpoint receives and can verify webhooks.",
			SentAt:     time.Now().UTC().Truncate(time.Millisecond),
		})
		eventID, err = record(ctx, q, NewEvent{SellerID: sellerID, Type: Ping, ObjectID: endpointID, Payload: payload}, &endpointID)
		return err
	})
	if err != nil {
		return uuid.Nil, err
	}
	return eventID, d.Dispatch(ctx, eventID)
}
