package services

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/webhook"
)

// EndpointTarget names a webhook endpoint as the audit log's target.
func EndpointTarget(endpointID uuid.UUID) string { return "webhook_endpoint " + endpointID.String() }

// EventTarget names an event of a seller's log as the audit log's target.
func EventTarget(eventID uuid.UUID) string { return "event " + eventID.String() }

// WebhooksPageSize is how many events, deliveries or endpoints a page of
// the console's webhook screens shows.
const WebhooksPageSize = 50

// webhookRefusals are the errors of the webhook services that refuse an
// action by a rule (a field, a limit, a disabled endpoint, a delivery
// still running) rather than fail: the audit log says refused.
var webhookRefusals = []error{
	webhook.ErrNotFound, webhook.ErrTooManyEndpoints, webhook.ErrEndpointDisabled, webhook.ErrDeliveryRunning, ErrEventNotFound,
}

// webhookOutcome is how an action on webhooks ended, for the audit log.
func webhookOutcome(err error) console.Outcome {
	var field *webhook.FieldError
	return outcomeOf(err, errors.As(err, &field) || oneOf(err, webhookRefusals...))
}

// CreateEndpoint registers a seller's webhook endpoint for a seller's
// admin, as POST /v1/webhook-endpoints does, and returns it with its
// signing secret, shown this once.
func (c *Console) CreateEndpoint(ctx context.Context, who console.Actor, sellerID uuid.UUID, in webhook.EndpointInput) (webhook.Endpoint, string, error) {
	ep, secret, err := c.Webhooks.CreateEndpoint(ctx, sellerID, in)
	target := ""
	if err == nil {
		target = EndpointTarget(ep.ID)
	}
	return ep, secret, c.audited(ctx, who, "webhook.endpoint_create", target, in.URL, webhookOutcome(err), err)
}

// SetEndpointEnabled disables a seller's endpoint (its pending deliveries
// stop) or enables it again, as PATCH /v1/webhook-endpoints/{id} does.
func (c *Console) SetEndpointEnabled(ctx context.Context, who console.Actor, sellerID, endpointID uuid.UUID, enabled bool) error {
	action := "webhook.endpoint_disable"
	if enabled {
		action = "webhook.endpoint_enable"
	}
	_, err := c.Webhooks.UpdateEndpoint(ctx, sellerID, endpointID, webhook.EndpointChange{Enabled: &enabled})
	return c.audited(ctx, who, action, EndpointTarget(endpointID), "", webhookOutcome(err), err)
}

// PingEndpoint sends a seller's endpoint a test event, as POST
// /v1/webhook-endpoints/{id}/ping does, and returns the event.
func (c *Console) PingEndpoint(ctx context.Context, who console.Actor, sellerID, endpointID uuid.UUID) (webhook.LoggedEvent, error) {
	ev, err := c.Webhooks.Ping(ctx, sellerID, endpointID)
	return ev, c.audited(ctx, who, "webhook.ping", EndpointTarget(endpointID), "", webhookOutcome(err), err)
}

// Redeliver sends an event of a seller's log again to the endpoints
// subscribed to it, as POST /v1/webhook-events/{id}/redeliver does. An
// unknown event is webhook.ErrNotFound.
func (c *Console) Redeliver(ctx context.Context, who console.Actor, sellerID, eventID uuid.UUID) error {
	_, err := c.Webhooks.Redeliver(ctx, sellerID, eventID)
	return c.audited(ctx, who, "webhook.redeliver", EventTarget(eventID), "", webhookOutcome(err), err)
}

// RedeliverAny is Redeliver for an operator: the event of whichever
// seller.
func (c *Console) RedeliverAny(ctx context.Context, who console.Actor, eventID uuid.UUID) error {
	ev, err := c.Webhooks.Store.GetEventByID(ctx, eventID)
	if db.IsNotFound(err) {
		return webhook.ErrNotFound
	}
	if err != nil {
		return err
	}
	return c.Redeliver(ctx, who, ev.SellerID, eventID)
}

// EventLog is a page of a seller's events with their deliveries, newest
// first, before the event (beforeAt, beforeID); the zero time starts at
// the newest.
func (c *Console) EventLog(ctx context.Context, sellerID uuid.UUID, beforeAt time.Time, beforeID uuid.UUID) ([]webhook.LoggedEvent, error) {
	if beforeAt.IsZero() {
		beforeAt, beforeID = farFuture, uuid.Max
	}
	rows, err := c.Webhooks.Store.ListEventsBefore(ctx, dbgen.ListEventsBeforeParams{
		SellerID: sellerID, BeforeAt: beforeAt, BeforeID: beforeID, PageSize: WebhooksPageSize,
	})
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	deliveries, err := c.Webhooks.Store.ListDeliveriesOfEvents(ctx, ids)
	if err != nil {
		return nil, err
	}
	byEvent := map[uuid.UUID][]dbgen.WebhookDelivery{}
	for _, d := range deliveries {
		byEvent[d.EventID] = append(byEvent[d.EventID], d)
	}
	out := make([]webhook.LoggedEvent, len(rows))
	for i, r := range rows {
		out[i] = webhook.LoggedEventOf(r, byEvent[r.ID], nil)
	}
	return out, nil
}

// farFuture starts a newest-first list: every row is before it.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// EndpointHealth is an endpoint as the operators' webhooks health shows
// it: its seller, how many of its finished attempts in the window failed,
// and the last failure.
type EndpointHealth struct {
	Endpoint   webhook.Endpoint
	SellerID   uuid.UUID
	SellerName string
	// Finished and Failures count the window's finished attempts and the
	// failed ones; FailurePermille is their ratio in per mille.
	Finished, Failures int64
	FailurePermille    int32
	// LastFailure is the window's last failed attempt, nil without one.
	LastFailure *webhook.Attempt
}

// WebhookHealth is a page of every seller's endpoints, worst failure rate
// since the moment first, after the endpoint (afterPermille, afterID);
// afterPermille < 0 starts at the worst. disabledOnly keeps the disabled
// endpoints.
func (c *Console) WebhookHealth(ctx context.Context, since time.Time, disabledOnly bool, afterPermille int32, afterID uuid.UUID) ([]EndpointHealth, error) {
	if afterPermille < 0 {
		// Above every rate (at most 1000 per mille), so the first page
		// starts at the worst.
		afterPermille, afterID = 1001, uuid.Max
	}
	rows, err := c.Webhooks.Store.ListWebhookHealth(ctx, dbgen.ListWebhookHealthParams{
		Since: since, DisabledOnly: disabledOnly, AfterPermille: afterPermille, AfterID: afterID, PageSize: WebhooksPageSize,
	})
	if err != nil {
		return nil, err
	}
	out := make([]EndpointHealth, len(rows))
	for i, r := range rows {
		h := EndpointHealth{
			Endpoint: webhook.Endpoint{ID: r.ID, URL: r.Url, DisabledAt: r.DisabledAt, DisabledReason: r.DisabledReason},
			SellerID: r.SellerID, SellerName: r.SellerName, Finished: r.Finished, Failures: r.Failures, FailurePermille: r.FailurePermille,
		}
		if r.LastFailureAt != nil {
			h.LastFailure = &webhook.Attempt{EndpointID: r.ID, StartedAt: *r.LastFailureAt, StatusCode: r.LastStatusCode,
				ErrorClass: r.LastErrorClass, ResponseExcerpt: r.LastResponseExcerpt}
		}
		out[i] = h
	}
	return out, nil
}

// SellerEndpoint is an endpoint of any seller, for an operator.
type SellerEndpoint struct {
	Endpoint   webhook.Endpoint
	SellerID   uuid.UUID
	SellerName string
}

// EndpointOfAnySeller reads an endpoint whoever its seller, deleted ones
// included (their history stays); an unknown one is webhook.ErrNotFound.
func (c *Console) EndpointOfAnySeller(ctx context.Context, endpointID uuid.UUID) (SellerEndpoint, error) {
	row, err := c.Webhooks.Store.GetWebhookEndpointByID(ctx, endpointID)
	if db.IsNotFound(err) {
		return SellerEndpoint{}, webhook.ErrNotFound
	}
	if err != nil {
		return SellerEndpoint{}, err
	}
	sellerName, err := c.SellerName(ctx, row.SellerID)
	if err != nil {
		return SellerEndpoint{}, err
	}
	return SellerEndpoint{Endpoint: webhook.EndpointOf(row), SellerID: row.SellerID, SellerName: sellerName}, nil
}

// EndpointDelivery is a delivery of an event to an endpoint, with the
// event's type.
type EndpointDelivery struct {
	webhook.Delivery
	EventID   uuid.UUID
	EventType string
	CreatedAt time.Time
}

// EndpointDeliveries is a page of an endpoint's deliveries, newest first,
// before the delivery (beforeAt, beforeID); the zero time starts at the
// newest.
func (c *Console) EndpointDeliveries(ctx context.Context, endpointID uuid.UUID, beforeAt time.Time, beforeID uuid.UUID) ([]EndpointDelivery, error) {
	if beforeAt.IsZero() {
		beforeAt, beforeID = farFuture, uuid.Max
	}
	rows, err := c.Webhooks.Store.ListEndpointDeliveries(ctx, dbgen.ListEndpointDeliveriesParams{
		EndpointID: endpointID, BeforeAt: beforeAt, BeforeID: beforeID, PageSize: WebhooksPageSize,
	})
	if err != nil {
		return nil, err
	}
	out := make([]EndpointDelivery, len(rows))
	for i, r := range rows {
		out[i] = EndpointDelivery{
			Delivery: webhook.Delivery{EndpointID: r.EndpointID, Status: r.Status, Run: r.Run, Attempts: r.Attempts,
				LastAttemptAt: r.LastAttemptAt, DeliveredAt: r.DeliveredAt},
			EventID: r.EventID, EventType: r.EventType, CreatedAt: r.CreatedAt,
		}
	}
	return out, nil
}
