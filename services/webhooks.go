package services

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
)

// Webhooks keeps a seller's webhook endpoints and its event log, and
// delivers events: pings, redeliveries and dispatches.
type Webhooks struct {
	Store      *db.Store
	Endpoints  *webhook.Endpoints
	Dispatcher *webhook.Dispatcher
}

// ListEndpoints returns every endpoint of the seller, oldest first.
func (w *Webhooks) ListEndpoints(ctx context.Context, sellerID uuid.UUID) ([]webhook.Endpoint, error) {
	rows, err := w.Store.ListWebhookEndpoints(ctx, sellerID)
	if err != nil {
		return nil, err
	}
	out := make([]webhook.Endpoint, len(rows))
	for i, r := range rows {
		out[i] = webhook.EndpointOf(r)
	}
	return out, nil
}

// GetEndpoint reads one endpoint of the seller; an unknown one is
// webhook.ErrNotFound.
func (w *Webhooks) GetEndpoint(ctx context.Context, sellerID, id uuid.UUID) (webhook.Endpoint, error) {
	row, err := w.Store.GetWebhookEndpoint(ctx, dbgen.GetWebhookEndpointParams{ID: id, SellerID: sellerID})
	if db.IsNotFound(err) {
		return webhook.Endpoint{}, webhook.ErrNotFound
	}
	if err != nil {
		return webhook.Endpoint{}, err
	}
	return webhook.EndpointOf(row), nil
}

// CreateEndpoint registers an endpoint and returns it with its signing
// secret, which is shown this once. A field the endpoint cannot have is a
// *webhook.FieldError; a seller with the most endpoints gets
// webhook.ErrTooManyEndpoints.
func (w *Webhooks) CreateEndpoint(ctx context.Context, sellerID uuid.UUID, in webhook.EndpointInput) (webhook.Endpoint, string, error) {
	created, err := w.Endpoints.Create(ctx, sellerID, in)
	if err != nil {
		return webhook.Endpoint{}, "", err
	}
	return webhook.EndpointOf(created.Endpoint), created.Secret, nil
}

// UpdateEndpoint changes the fields the change sets.
func (w *Webhooks) UpdateEndpoint(ctx context.Context, sellerID, id uuid.UUID, ch webhook.EndpointChange) (webhook.Endpoint, error) {
	row, err := w.Endpoints.Update(ctx, sellerID, id, ch)
	if err != nil {
		return webhook.Endpoint{}, err
	}
	return webhook.EndpointOf(row), nil
}

// DeleteEndpoint removes an endpoint; its history stays.
func (w *Webhooks) DeleteEndpoint(ctx context.Context, sellerID, id uuid.UUID) error {
	return w.Endpoints.Delete(ctx, sellerID, id)
}

// RotateSecret gives an endpoint a new signing secret, returned this once.
func (w *Webhooks) RotateSecret(ctx context.Context, sellerID, id uuid.UUID) (webhook.Endpoint, string, error) {
	rotated, err := w.Endpoints.Rotate(ctx, sellerID, id)
	if err != nil {
		return webhook.Endpoint{}, "", err
	}
	return webhook.EndpointOf(rotated.Endpoint), rotated.Secret, nil
}

// Ping sends an endpoint a signed ping event and returns the event. A
// dispatch that fails leaves the ping to the relay: it is on its way
// either way.
func (w *Webhooks) Ping(ctx context.Context, sellerID, endpointID uuid.UUID) (webhook.LoggedEvent, error) {
	eventID, err := w.Dispatcher.Ping(ctx, sellerID, endpointID)
	if err != nil && (eventID == uuid.Nil || errors.Is(err, webhook.ErrNotFound) || errors.Is(err, webhook.ErrEndpointDisabled)) {
		return webhook.LoggedEvent{}, err
	}
	return w.Event(ctx, sellerID, eventID, false)
}

// EventFilter picks events of a seller's log; nil fields pick any.
type EventFilter struct {
	Type            *string
	ObjectID        *uuid.UUID
	DeliverySuccess *bool
	CreatedAtGt     *time.Time
	CreatedAtGte    *time.Time
	CreatedAtLt     *time.Time
	CreatedAtLte    *time.Time
}

// ListEvents returns one zero-based page of size of the seller's events
// the filter picks, oldest first, with their deliveries, and how many it
// picks in all.
func (w *Webhooks) ListEvents(ctx context.Context, sellerID uuid.UUID, f EventFilter, page, size int64) ([]webhook.LoggedEvent, int64, error) {
	filter := dbgen.CountEventsParams{
		SellerID: sellerID, Type: f.Type, ObjectID: f.ObjectID, DeliverySuccess: f.DeliverySuccess,
		CreatedAtGt: f.CreatedAtGt, CreatedAtGte: f.CreatedAtGte, CreatedAtLt: f.CreatedAtLt, CreatedAtLte: f.CreatedAtLte,
	}
	total, err := w.Store.CountEvents(ctx, filter)
	if err != nil {
		return nil, 0, err
	}
	rows, err := w.Store.ListEvents(ctx, dbgen.ListEventsParams{
		SellerID: filter.SellerID, Type: filter.Type, ObjectID: filter.ObjectID, DeliverySuccess: filter.DeliverySuccess,
		CreatedAtGt: filter.CreatedAtGt, CreatedAtGte: filter.CreatedAtGte, CreatedAtLt: filter.CreatedAtLt, CreatedAtLte: filter.CreatedAtLte,
		RowLimit: size, RowOffset: page * size,
	})
	if err != nil {
		return nil, 0, err
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	deliveries, err := w.Store.ListDeliveriesOfEvents(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	byEvent := map[uuid.UUID][]dbgen.WebhookDelivery{}
	for _, d := range deliveries {
		byEvent[d.EventID] = append(byEvent[d.EventID], d)
	}
	out := make([]webhook.LoggedEvent, len(rows))
	for i, r := range rows {
		out[i] = webhook.LoggedEventOf(r, byEvent[r.ID], nil)
	}
	return out, total, nil
}

// ErrEventNotFound says the seller's log has no event with an id.
var ErrEventNotFound = errors.New("no such event")

// Event reads an event of the seller's with its deliveries and, when asked,
// its attempts.
func (w *Webhooks) Event(ctx context.Context, sellerID, id uuid.UUID, withAttempts bool) (webhook.LoggedEvent, error) {
	ev, err := w.Store.GetEvent(ctx, dbgen.GetEventParams{ID: id, SellerID: sellerID})
	if db.IsNotFound(err) {
		return webhook.LoggedEvent{}, ErrEventNotFound
	}
	if err != nil {
		return webhook.LoggedEvent{}, err
	}
	deliveries, err := w.Store.ListEventDeliveries(ctx, id)
	if err != nil {
		return webhook.LoggedEvent{}, err
	}
	var attempts []dbgen.WebhookAttempt
	if withAttempts {
		if attempts, err = w.Store.ListEventAttempts(ctx, id); err != nil {
			return webhook.LoggedEvent{}, err
		}
	}
	return webhook.LoggedEventOf(ev, deliveries, attempts), nil
}

// Redeliver starts a new delivery run of an event and returns the event.
// An unknown event is webhook.ErrNotFound; one still being delivered,
// webhook.ErrDeliveryRunning.
func (w *Webhooks) Redeliver(ctx context.Context, sellerID, id uuid.UUID) (webhook.LoggedEvent, error) {
	if _, err := w.Dispatcher.Redeliver(ctx, sellerID, id); err != nil {
		return webhook.LoggedEvent{}, err
	}
	return w.Event(ctx, sellerID, id, false)
}
