package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/idempotency"
)

// ErrDeliveryRunning refuses a redelivery while a delivery of the event is
// still running.
var ErrDeliveryRunning = errors.New("a delivery of this event is still running")

// Dispatcher starts delivery workflows for recorded events.
type Dispatcher struct {
	store    *db.Store
	starter  DeliveryStarter
	schedule []time.Duration
	timeout  time.Duration
}

// NewDispatcher dispatches with the configured retry schedule (the wait
// before each attempt) and per-attempt timeout, starting each run's
// workflow through starter.
func NewDispatcher(store *db.Store, starter DeliveryStarter, cfg config.WebhooksConfig) *Dispatcher {
	return &Dispatcher{store: store, starter: starter, schedule: cfg.RetrySchedule, timeout: cfg.AttemptTimeout}
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
		err := d.dispatch(ctx, func(q *dbgen.Queries) ([]dbgen.Event, error) {
			ev, err := q.LockUndispatchedEvent(ctx, id)
			if db.IsNotFound(err) {
				return nil, nil
			}
			return []dbgen.Event{ev}, err
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("dispatching event %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// claimedEvent is an event whose deliveries exist, with those still pending.
type claimedEvent struct {
	id      uuid.UUID
	pending []dbgen.WebhookDelivery
	// traceParent is the trace of the change that recorded the event.
	traceParent *string
}

// dispatch creates the deliveries of the events lock returns and commits
// them, then starts their workflows and marks each event dispatched; an
// event with no delivery to start is marked in the same transaction. The
// workflows start only once their delivery rows are committed, so the
// first attempt always finds them; a crash before an event is marked
// leaves it to the relay, which finds its deliveries and workflows in place.
func (d *Dispatcher) dispatch(ctx context.Context, lock func(q *dbgen.Queries) ([]dbgen.Event, error)) error {
	var claimed []claimedEvent
	err := d.store.InTx(ctx, func(q *dbgen.Queries) error {
		events, err := lock(q)
		if err != nil {
			return err
		}
		for _, ev := range events {
			c, err := d.createDeliveries(ctx, q, ev)
			if err != nil {
				return err
			}
			if len(c.pending) == 0 {
				// Nothing to start: the event is dispatched with this
				// commit, not by a second one (most events of a seller
				// without endpoints).
				if err := q.MarkEventDispatched(ctx, c.id); err != nil {
					return err
				}
				continue
			}
			claimed = append(claimed, c)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range claimed {
		if err := d.launch(ctx, c); err != nil {
			errs = append(errs, fmt.Errorf("event %s: %w", c.id, err))
		}
	}
	return errors.Join(errs...)
}

// createDeliveries creates the deliveries of an event to its recipients
// and returns those still pending.
func (d *Dispatcher) createDeliveries(ctx context.Context, q *dbgen.Queries, ev dbgen.Event) (claimedEvent, error) {
	c := claimedEvent{id: ev.ID, traceParent: ev.TraceParent}
	endpoints, err := d.recipients(ctx, q, ev)
	if err != nil {
		return c, err
	}
	for _, ep := range endpoints {
		err := q.CreateDelivery(ctx, dbgen.CreateDeliveryParams{EventID: ev.ID, EndpointID: ep.ID, SellerID: ev.SellerID})
		if err != nil {
			return c, err
		}
	}
	deliveries, err := q.ListEventDeliveries(ctx, ev.ID)
	if err != nil {
		return c, err
	}
	for _, dl := range deliveries {
		if dl.Status == DeliveryPending {
			c.pending = append(c.pending, dl)
		}
	}
	return c, nil
}

// launch starts the workflows of an event's pending deliveries (an
// existing one counts as started) and marks the event dispatched. The
// relay's starts continue the trace of the change that recorded the event.
func (d *Dispatcher) launch(ctx context.Context, c claimedEvent) error {
	ctx = continueTrace(ctx, c.traceParent)
	for _, dl := range c.pending {
		if err := d.start(ctx, dl, false); err != nil && !errors.Is(err, ErrDeliveryStarted) {
			return err
		}
	}
	return d.store.MarkEventDispatched(ctx, c.id)
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

// start starts the workflow of one delivery run.
func (d *Dispatcher) start(ctx context.Context, dl dbgen.WebhookDelivery, redelivery bool) error {
	return d.starter.StartDelivery(ctx, DeliveryRun{
		EventID:        dl.EventID,
		EndpointID:     dl.EndpointID,
		Run:            dl.Run,
		Delays:         Delays(d.schedule, fmt.Sprintf("%s/%d", DeliveryKey(dl.EventID, dl.EndpointID), dl.Run)),
		AttemptTimeout: d.timeout,
	}, redelivery)
}

// Redeliver starts a new delivery run of a seller's event to every endpoint
// subscribed to it now, with the same webhook-id (the event id). It refuses
// with ErrDeliveryRunning while any delivery of the event is pending, and
// with ErrNotFound for an event the seller does not have. A run whose
// workflow cannot be started is cancelled, so nothing stays pending for
// ever.
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
			if dl.Status == DeliveryPending {
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
			runs = append(runs, dl)
		}
		// The relay has nothing to do for this event: its runs start below.
		return q.MarkEventDispatched(ctx, eventID)
	})
	if err != nil {
		return nil, err
	}
	for i, dl := range runs {
		err := d.start(ctx, dl, true)
		if err == nil {
			continue
		}
		for _, unstarted := range runs[i:] {
			if cerr := d.store.SettleDelivery(ctx, dbgen.SettleDeliveryParams{
				EventID: unstarted.EventID, EndpointID: unstarted.EndpointID, Run: unstarted.Run, Status: DeliveryCancelled,
			}); cerr != nil {
				err = errors.Join(err, cerr)
			}
		}
		if errors.Is(err, ErrDeliveryStarted) {
			return nil, ErrDeliveryRunning
		}
		return nil, err
	}
	return runs, nil
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
		// A resumed request finds the ping its first attempt recorded.
		ping := NewEvent{ID: idempotency.NewID(ctx), SellerID: sellerID, Type: Ping, ObjectID: endpointID, Payload: payload}
		eventID, err = record(ctx, q, ping, &endpointID)
		return err
	})
	if err != nil {
		return uuid.Nil, err
	}
	return eventID, d.Dispatch(ctx, eventID)
}
