package seller

import (
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// webhookEndpoints serves a seller's webhook endpoints (Tenure extension)
// through the webhook service.
type webhookEndpoints struct {
	webhooks *services.Webhooks
}

// ListWebhookEndpoints returns every endpoint of the caller, oldest first.
func (h webhookEndpoints) ListWebhookEndpoints(ctx context.Context, _ sellerapi.ListWebhookEndpointsRequestObject) (sellerapi.ListWebhookEndpointsResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	list, err := h.webhooks.ListEndpoints(ctx, claims.SellerID)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListWebhookEndpoints200JSONResponse{Data: views.Of(list, endpointView)}, nil
}

// CreateWebhookEndpoint registers an endpoint and shows its secret once.
func (h webhookEndpoints) CreateWebhookEndpoint(ctx context.Context, req sellerapi.CreateWebhookEndpointRequestObject) (sellerapi.CreateWebhookEndpointResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	created, secret, err := h.webhooks.CreateEndpoint(ctx, claims.SellerID, webhook.EndpointInput{
		URL: req.Body.Url, Events: optional.Value(req.Body.Events), Description: optional.Value(req.Body.Description),
	})
	if err != nil {
		return nil, endpointError(err)
	}
	return sellerapi.CreateWebhookEndpoint201JSONResponse(withSecretView(created, secret)), nil
}

// GetWebhookEndpoint returns one endpoint, without its secret.
func (h webhookEndpoints) GetWebhookEndpoint(ctx context.Context, req sellerapi.GetWebhookEndpointRequestObject) (sellerapi.GetWebhookEndpointResponseObject, error) {
	seller, id, err := callerAnd(ctx, req.Id, endpointNotFound)
	if err != nil {
		return nil, err
	}
	ep, err := h.webhooks.GetEndpoint(ctx, seller, id)
	if errors.Is(err, webhook.ErrNotFound) {
		return nil, endpointNotFound(req.Id)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.GetWebhookEndpoint200JSONResponse(endpointView(ep)), nil
}

// UpdateWebhookEndpoint changes the fields present in the body.
func (h webhookEndpoints) UpdateWebhookEndpoint(ctx context.Context, req sellerapi.UpdateWebhookEndpointRequestObject) (sellerapi.UpdateWebhookEndpointResponseObject, error) {
	seller, id, err := callerAnd(ctx, req.Id, endpointNotFound)
	if err != nil {
		return nil, err
	}
	b := req.Body
	ep, err := h.webhooks.UpdateEndpoint(ctx, seller, id, webhook.EndpointChange{URL: b.Url, Events: b.Events, Description: b.Description, Enabled: b.Enabled})
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
	seller, id, err := callerAnd(ctx, req.Id, endpointNotFound)
	if err != nil {
		return nil, err
	}
	err = h.webhooks.DeleteEndpoint(ctx, seller, id)
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
	seller, id, err := callerAnd(ctx, req.Id, endpointNotFound)
	if err != nil {
		return nil, err
	}
	rotated, secret, err := h.webhooks.RotateSecret(ctx, seller, id)
	if errors.Is(err, webhook.ErrNotFound) {
		return nil, endpointNotFound(req.Id)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.RotateWebhookEndpointSecret200JSONResponse(withSecretView(rotated, secret)), nil
}

// TestWebhookEndpoint sends the endpoint a signed ping event.
func (h webhookEndpoints) TestWebhookEndpoint(ctx context.Context, req sellerapi.TestWebhookEndpointRequestObject) (sellerapi.TestWebhookEndpointResponseObject, error) {
	seller, id, err := callerAnd(ctx, req.Id, endpointNotFound)
	if err != nil {
		return nil, err
	}
	ping, err := h.webhooks.Ping(ctx, seller, id)
	switch {
	case errors.Is(err, webhook.ErrNotFound):
		return nil, endpointNotFound(req.Id)
	case errors.Is(err, webhook.ErrEndpointDisabled):
		return nil, apierror.Unprocessable("%s", err.Error())
	case err != nil:
		return nil, err
	}
	return sellerapi.TestWebhookEndpoint202JSONResponse(eventView(ping)), nil
}

func endpointNotFound(id string) error {
	return apierror.NotFound("no webhook endpoint with id %s", id)
}

// endpointError turns the webhook package's refusals into API errors.
func endpointError(err error) error {
	var field *webhook.FieldError
	switch {
	case errors.As(err, &field) && field.Refused:
		return apierror.Unprocessable("%s", field.Error())
	case errors.As(err, &field):
		return apierror.BadRequest("%s", field.Error())
	case errors.Is(err, webhook.ErrTooManyEndpoints):
		return apierror.Unprocessable("%s", err.Error())
	}
	return err
}

func endpointView(ep webhook.Endpoint) sellerapi.WebhookEndpoint {
	return sellerapi.WebhookEndpoint{
		Id:                      ep.ID.String(),
		Url:                     ep.URL,
		Events:                  ep.Events,
		Description:             ep.Description,
		Enabled:                 ep.DisabledAt == nil,
		DisabledAt:              ep.DisabledAt,
		DisabledReason:          ep.DisabledReason,
		PreviousSecretExpiresAt: ep.PreviousSecretExpiresAt,
		CreatedAt:               ep.CreatedAt,
		UpdatedAt:               ep.UpdatedAt,
	}
}

// withSecretView is an endpoint with its signing secret, shown when it is
// created and when it is rotated.
func withSecretView(ep webhook.Endpoint, secret string) sellerapi.WebhookEndpointWithSecret {
	v := endpointView(ep)
	return sellerapi.WebhookEndpointWithSecret{
		Id: v.Id, Url: v.Url, Events: v.Events, Description: v.Description, Enabled: v.Enabled,
		DisabledAt: v.DisabledAt, DisabledReason: v.DisabledReason, PreviousSecretExpiresAt: v.PreviousSecretExpiresAt,
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt, Secret: secret,
	}
}
