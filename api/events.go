package api

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// Event list page sizes.
const (
	defaultEventPageSize = 50
	maxEventPageSize     = 100
)

// events serves the event log and redelivery (Tenure extension).
type events struct {
	store      *db.Store
	dispatcher *webhook.Dispatcher
}

// ListEvents returns one page of the caller's events, oldest first.
func (h events) ListEvents(ctx context.Context, req sellerapi.ListEventsRequestObject) (sellerapi.ListEventsResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	p := req.Params
	page, err := pageIndex(p.Page)
	if err != nil {
		return nil, err
	}
	size := int64(defaultEventPageSize)
	if p.Limit != nil {
		if *p.Limit < 1 {
			return nil, BadRequest("query parameter limit must be at least 1, got %d", *p.Limit)
		}
		size = min(*p.Limit, maxEventPageSize)
	}
	if p.Type != nil && !webhook.IsEventType(*p.Type) {
		return nil, BadRequest("query parameter type: unknown event type %q", *p.Type)
	}
	var objectID *uuid.UUID
	if p.ObjectId != nil {
		id, err := recordid.Parse(*p.ObjectId)
		if err != nil {
			return nil, BadRequest("query parameter object_id must be a UUID, got %q", *p.ObjectId)
		}
		objectID = &id
	}
	filter := dbgen.CountEventsParams{
		SellerID: claims.SellerID, Type: p.Type, ObjectID: objectID, DeliverySuccess: p.DeliverySuccess,
		CreatedAtGt: p.CreatedAtGt, CreatedAtGte: p.CreatedAtGte, CreatedAtLt: p.CreatedAtLt, CreatedAtLte: p.CreatedAtLte,
	}
	total, err := h.store.CountEvents(ctx, filter)
	if err != nil {
		return nil, err
	}
	rows, err := h.store.ListEvents(ctx, dbgen.ListEventsParams{
		SellerID: filter.SellerID, Type: filter.Type, ObjectID: filter.ObjectID, DeliverySuccess: filter.DeliverySuccess,
		CreatedAtGt: filter.CreatedAtGt, CreatedAtGte: filter.CreatedAtGte, CreatedAtLt: filter.CreatedAtLt, CreatedAtLte: filter.CreatedAtLte,
		RowLimit: size, RowOffset: page * size,
	})
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	deliveries, err := h.store.ListDeliveriesOfEvents(ctx, ids)
	if err != nil {
		return nil, err
	}
	byEvent := map[uuid.UUID][]dbgen.WebhookDelivery{}
	for _, d := range deliveries {
		byEvent[d.EventID] = append(byEvent[d.EventID], d)
	}
	out := make([]sellerapi.Event, len(rows))
	for i, r := range rows {
		out[i] = eventView(r, byEvent[r.ID], nil)
	}
	pages := (total + size - 1) / size
	return sellerapi.ListEvents200JSONResponse{
		Events:     out,
		Pagination: sellerapi.Pagination{Page: &page, PageSize: &size, TotalCount: &total, TotalPages: &pages},
	}, nil
}

// GetEvent returns one event with its deliveries and every attempt.
func (h events) GetEvent(ctx context.Context, req sellerapi.GetEventRequestObject) (sellerapi.GetEventResponseObject, error) {
	seller, id, err := eventTarget(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	view, err := loadEventView(ctx, h.store, seller, id, true)
	if err != nil {
		return nil, err
	}
	return sellerapi.GetEvent200JSONResponse(view), nil
}

// RedeliverEvent starts a new delivery run of an event.
func (h events) RedeliverEvent(ctx context.Context, req sellerapi.RedeliverEventRequestObject) (sellerapi.RedeliverEventResponseObject, error) {
	seller, id, err := eventTarget(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	_, err = h.dispatcher.Redeliver(ctx, seller, id)
	switch {
	case errors.Is(err, webhook.ErrNotFound):
		return nil, NotFound("no event with id %s", req.Id)
	case errors.Is(err, webhook.ErrDeliveryRunning):
		return nil, Conflict("a delivery of event %s is still pending; redeliver it once its deliveries have ended", req.Id)
	case err != nil:
		return nil, err
	}
	view, err := loadEventView(ctx, h.store, seller, id, false)
	if err != nil {
		return nil, err
	}
	return sellerapi.RedeliverEvent202JSONResponse(view), nil
}

func eventTarget(ctx context.Context, raw string) (seller, id uuid.UUID, err error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	id, err = recordid.Parse(raw)
	if err != nil {
		return uuid.Nil, uuid.Nil, NotFound("no event with id %s", raw)
	}
	return claims.SellerID, id, nil
}

// loadEventView reads a seller's event with its deliveries and, when asked,
// its attempts.
func loadEventView(ctx context.Context, store *db.Store, seller, id uuid.UUID, withAttempts bool) (sellerapi.Event, error) {
	ev, err := store.GetEvent(ctx, dbgen.GetEventParams{ID: id, SellerID: seller})
	if db.IsNotFound(err) {
		return sellerapi.Event{}, NotFound("no event with id %s", id)
	}
	if err != nil {
		return sellerapi.Event{}, err
	}
	deliveries, err := store.ListEventDeliveries(ctx, id)
	if err != nil {
		return sellerapi.Event{}, err
	}
	var attempts []dbgen.WebhookAttempt
	if withAttempts {
		if attempts, err = store.ListEventAttempts(ctx, id); err != nil {
			return sellerapi.Event{}, err
		}
	}
	return eventView(ev, deliveries, attempts), nil
}

func eventView(ev dbgen.Event, deliveries []dbgen.WebhookDelivery, attempts []dbgen.WebhookAttempt) sellerapi.Event {
	v := sellerapi.Event{
		Id: ev.ID.String(), Type: ev.Type, ObjectId: ev.ObjectID.String(), Payload: ev.Payload,
		CreatedAt: ev.CreatedAt.UTC(), Deliveries: make([]sellerapi.WebhookDelivery, len(deliveries)),
	}
	for i, d := range deliveries {
		v.Deliveries[i] = sellerapi.WebhookDelivery{
			EndpointId: d.EndpointID.String(), Status: sellerapi.WebhookDeliveryStatus(d.Status), Run: d.Run,
			Attempts: d.Attempts, LastAttemptAt: utc(d.LastAttemptAt), DeliveredAt: utc(d.DeliveredAt),
		}
	}
	if attempts != nil {
		list := make([]sellerapi.WebhookAttempt, len(attempts))
		for i, a := range attempts {
			list[i] = sellerapi.WebhookAttempt{
				EndpointId: a.EndpointID.String(), Run: a.Run, Attempt: a.Attempt, AttemptedAt: a.StartedAt.UTC(),
				Outcome: sellerapi.WebhookAttemptOutcome(a.Outcome), StatusCode: a.StatusCode, LatencyMs: a.LatencyMs,
				ErrorClass: a.ErrorClass, ResponseExcerpt: a.ResponseExcerpt,
			}
		}
		v.Attempts = &list
	}
	return v
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
