package api

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// webhookEndpoints serves a seller's webhook endpoints (Tenure extension).
type webhookEndpoints struct {
	store      *db.Store
	endpoints  *webhook.Endpoints
	dispatcher *webhook.Dispatcher
}

// ListWebhookEndpoints returns every endpoint of the caller, oldest first.
func (h webhookEndpoints) ListWebhookEndpoints(ctx context.Context, _ sellerapi.ListWebhookEndpointsRequestObject) (sellerapi.ListWebhookEndpointsResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := h.store.ListWebhookEndpoints(ctx, claims.SellerID)
	if err != nil {
		return nil, err
	}
	data := make([]sellerapi.WebhookEndpoint, len(rows))
	for i, r := range rows {
		data[i] = endpointView(r)
	}
	return sellerapi.ListWebhookEndpoints200JSONResponse{Data: data}, nil
}

// CreateWebhookEndpoint registers an endpoint and shows its secret once.
func (h webhookEndpoints) CreateWebhookEndpoint(ctx context.Context, req sellerapi.CreateWebhookEndpointRequestObject) (sellerapi.CreateWebhookEndpointResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	created, err := h.endpoints.Create(ctx, claims.SellerID, webhook.EndpointInput{
		URL: req.Body.Url, Events: optional.Value(req.Body.Events), Description: optional.Value(req.Body.Description),
	})
	if err != nil {
		return nil, endpointError(err)
	}
	return sellerapi.CreateWebhookEndpoint201JSONResponse(withSecretView(created)), nil
}

// GetWebhookEndpoint returns one endpoint, without its secret.
func (h webhookEndpoints) GetWebhookEndpoint(ctx context.Context, req sellerapi.GetWebhookEndpointRequestObject) (sellerapi.GetWebhookEndpointResponseObject, error) {
	claims, id, err := endpointTarget(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	ep, err := h.store.GetWebhookEndpoint(ctx, dbgen.GetWebhookEndpointParams{ID: id, SellerID: claims})
	if db.IsNotFound(err) {
		return nil, endpointNotFound(req.Id)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.GetWebhookEndpoint200JSONResponse(endpointView(ep)), nil
}

// UpdateWebhookEndpoint changes the fields present in the body.
func (h webhookEndpoints) UpdateWebhookEndpoint(ctx context.Context, req sellerapi.UpdateWebhookEndpointRequestObject) (sellerapi.UpdateWebhookEndpointResponseObject, error) {
	seller, id, err := endpointTarget(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	b := req.Body
	ep, err := h.endpoints.Update(ctx, seller, id, webhook.EndpointChange{URL: b.Url, Events: b.Events, Description: b.Description, Enabled: b.Enabled})
	if errors.Is(err, webhook.ErrNotFound) {
		return nil, endpointNotFound(req.Id)
	}
	if err != nil {
		return nil, endpointError(err)
	}
	return sellerapi.UpdateWebhookEndpoint200JSONResponse(endpointView(ep)), nil
}

// DeleteWebhookEndpoint removes an endpoint; its history stays.
func (h webhookEndpoints) DeleteWebhookEndpoint(ctx context.Context, req sellerapi.DeleteWebhookEndpointRequestObject) (sellerapi.DeleteWebhookEndpointResponseObject, error) {
	seller, id, err := endpointTarget(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	err = h.endpoints.Delete(ctx, seller, id)
	if errors.Is(err, webhook.ErrNotFound) {
		return nil, endpointNotFound(req.Id)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.DeleteWebhookEndpoint204Response{}, nil
}

// RotateWebhookEndpointSecret gives the endpoint a new secret, shown once.
func (h webhookEndpoints) RotateWebhookEndpointSecret(ctx context.Context, req sellerapi.RotateWebhookEndpointSecretRequestObject) (sellerapi.RotateWebhookEndpointSecretResponseObject, error) {
	seller, id, err := endpointTarget(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	rotated, err := h.endpoints.Rotate(ctx, seller, id)
	if errors.Is(err, webhook.ErrNotFound) {
		return nil, endpointNotFound(req.Id)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.RotateWebhookEndpointSecret200JSONResponse(withSecretView(rotated)), nil
}

// TestWebhookEndpoint sends the endpoint a signed ping event.
func (h webhookEndpoints) TestWebhookEndpoint(ctx context.Context, req sellerapi.TestWebhookEndpointRequestObject) (sellerapi.TestWebhookEndpointResponseObject, error) {
	seller, id, err := endpointTarget(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	eventID, err := h.dispatcher.Ping(ctx, seller, id)
	switch {
	case errors.Is(err, webhook.ErrNotFound):
		return nil, endpointNotFound(req.Id)
	case errors.Is(err, webhook.ErrEndpointDisabled):
		return nil, Unprocessable("%s", err.Error())
	case err != nil && eventID == uuid.Nil:
		return nil, err
	}
	// A dispatch error leaves the ping to the relay; it is on its way either way.
	view, err := loadEventView(ctx, h.store, seller, eventID, false)
	if err != nil {
		return nil, err
	}
	return sellerapi.TestWebhookEndpoint202JSONResponse(view), nil
}

// endpointTarget is the caller and the endpoint id of a path. An id that
// is no UUID names no endpoint: 404, like an unknown one.
func endpointTarget(ctx context.Context, raw string) (seller, id uuid.UUID, err error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	id, err = recordid.Parse(raw)
	if err != nil {
		return uuid.Nil, uuid.Nil, endpointNotFound(raw)
	}
	return claims.SellerID, id, nil
}

func endpointNotFound(id string) error { return NotFound("no webhook endpoint with id %s", id) }

// endpointError turns the webhook package's refusals into API errors.
func endpointError(err error) error {
	var field *webhook.FieldError
	switch {
	case errors.As(err, &field) && field.Refused:
		return Unprocessable("%s", field.Error())
	case errors.As(err, &field):
		return BadRequest("%s", field.Error())
	case errors.Is(err, webhook.ErrTooManyEndpoints):
		return Unprocessable("%s", err.Error())
	}
	return err
}

func endpointView(ep dbgen.WebhookEndpoint) sellerapi.WebhookEndpoint {
	v := sellerapi.WebhookEndpoint{
		Id:             ep.ID.String(),
		Url:            ep.Url,
		Events:         ep.Events,
		Description:    ep.Description,
		Enabled:        ep.DisabledAt == nil,
		DisabledAt:     ep.DisabledAt,
		DisabledReason: ep.DisabledReason,
		CreatedAt:      ep.CreatedAt,
		UpdatedAt:      ep.UpdatedAt,
	}
	if ep.PreviousSecretExpiresAt != nil && ep.PreviousSecret != nil {
		v.PreviousSecretExpiresAt = ep.PreviousSecretExpiresAt
	}
	return v
}

func withSecretView(e webhook.EndpointWithSecret) sellerapi.WebhookEndpointWithSecret {
	v := endpointView(e.Endpoint)
	return sellerapi.WebhookEndpointWithSecret{
		Id: v.Id, Url: v.Url, Events: v.Events, Description: v.Description, Enabled: v.Enabled,
		DisabledAt: v.DisabledAt, DisabledReason: v.DisabledReason, PreviousSecretExpiresAt: v.PreviousSecretExpiresAt,
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt, Secret: e.Secret,
	}
}
