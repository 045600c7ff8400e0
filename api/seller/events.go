package seller

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// Event list page sizes.
const (
	defaultEventPageSize = 50
	maxEventPageSize     = 100
)

// events serves the event log and redelivery (Tenure extension) through
// the webhook service.
type events struct {
	webhooks *services.Webhooks
}

// ListEvents returns one page of the caller's events, oldest first.
func (h events) ListEvents(ctx context.Context, req sellerapi.ListEventsRequestObject) (sellerapi.ListEventsResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
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
			return nil, apierror.BadRequest("query parameter limit must be at least 1, got %d", *p.Limit)
		}
		size = min(*p.Limit, maxEventPageSize)
	}
	if p.Type != nil && !webhook.IsEventType(*p.Type) {
		return nil, apierror.BadRequest("query parameter type: unknown event type %q", *p.Type)
	}
	var objectID *uuid.UUID
	if p.ObjectId != nil {
		id, err := recordid.Parse(*p.ObjectId)
		if err != nil {
			return nil, apierror.BadRequest("query parameter object_id must be a UUID, got %q", *p.ObjectId)
		}
		objectID = &id
	}
	list, total, err := h.webhooks.ListEvents(ctx, claims.SellerID, services.EventFilter{
		Type: p.Type, ObjectID: objectID, DeliverySuccess: p.DeliverySuccess,
		CreatedAtGt: p.CreatedAtGt, CreatedAtGte: p.CreatedAtGte, CreatedAtLt: p.CreatedAtLt, CreatedAtLte: p.CreatedAtLte,
	}, page, size)
	if err != nil {
		return nil, err
	}
	pages := (total + size - 1) / size
	return sellerapi.ListEvents200JSONResponse{
		Events:     views.Of(list, eventView),
		Pagination: sellerapi.Pagination{Page: &page, PageSize: &size, TotalCount: &total, TotalPages: &pages},
	}, nil
}

// GetEvent returns one event with its deliveries and every attempt.
func (h events) GetEvent(ctx context.Context, req sellerapi.GetEventRequestObject) (sellerapi.GetEventResponseObject, error) {
	seller, id, err := callerAnd(ctx, req.Id, eventNotFound)
	if err != nil {
		return nil, err
	}
	ev, err := h.webhooks.Event(ctx, seller, id, true)
	if err != nil {
		return nil, eventError(err, id)
	}
	return sellerapi.GetEvent200JSONResponse(eventView(ev)), nil
}

// RedeliverEvent starts a new delivery run of an event.
func (h events) RedeliverEvent(ctx context.Context, req sellerapi.RedeliverEventRequestObject) (sellerapi.RedeliverEventResponseObject, error) {
	seller, id, err := callerAnd(ctx, req.Id, eventNotFound)
	if err != nil {
		return nil, err
	}
	ev, err := h.webhooks.Redeliver(ctx, seller, id)
	switch {
	case errors.Is(err, webhook.ErrNotFound):
		return nil, apierror.NotFound("no event with id %s", req.Id)
	case errors.Is(err, webhook.ErrDeliveryRunning):
		return nil, apierror.Conflict("a delivery of event %s is still pending; redeliver it once its deliveries have ended", req.Id)
	case err != nil:
		return nil, eventError(err, id)
	}
	return sellerapi.RedeliverEvent202JSONResponse(eventView(ev)), nil
}

// eventNotFound is the 404 of an event the seller's log lacks.
func eventNotFound(id string) error { return apierror.NotFound("no event with id %s", id) }

// eventError answers an event the seller's log lacks with 404.
func eventError(err error, id uuid.UUID) error {
	if errors.Is(err, services.ErrEventNotFound) {
		return eventNotFound(id.String())
	}
	return err
}

func eventView(ev webhook.LoggedEvent) sellerapi.Event {
	v := sellerapi.Event{
		Id: ev.ID.String(), Type: ev.Type, ObjectId: ev.ObjectID.String(), Payload: ev.Payload,
		CreatedAt: ev.CreatedAt.UTC(), Deliveries: make([]sellerapi.WebhookDelivery, len(ev.Deliveries)),
	}
	for i, d := range ev.Deliveries {
		v.Deliveries[i] = sellerapi.WebhookDelivery{
			EndpointId: d.EndpointID.String(), Status: sellerapi.WebhookDeliveryStatus(d.Status), Run: d.Run,
			Attempts: d.Attempts, LastAttemptAt: utc(d.LastAttemptAt), DeliveredAt: utc(d.DeliveredAt),
		}
	}
	if ev.Attempts != nil {
		list := make([]sellerapi.WebhookAttempt, len(ev.Attempts))
		for i, a := range ev.Attempts {
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
