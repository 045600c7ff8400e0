package webhook

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/idempotency"
)

// Limits of endpoint registration.
const (
	// MaxDescriptionLength is the longest endpoint description, in characters.
	MaxDescriptionLength = 500
	// MaxEndpoints is how many endpoints one seller may register.
	MaxEndpoints = 20
)

// FieldError refuses an endpoint field; Refused marks a well-formed value
// that the rules do not allow (a non-public address in production).
type FieldError struct {
	Field   string
	Message string
	Refused bool
}

func (e *FieldError) Error() string { return "field " + e.Field + ": " + e.Message }

// ErrNotFound says the seller has no such endpoint or event.
var ErrNotFound = errors.New("not found")

// ErrTooManyEndpoints refuses a registration beyond MaxEndpoints.
var ErrTooManyEndpoints = fmt.Errorf("a seller may register at most %d webhook endpoints", MaxEndpoints)

// ErrEndpointDisabled refuses to ping a disabled endpoint.
var ErrEndpointDisabled = errors.New("the endpoint is disabled; enable it with PATCH {\"enabled\": true} first")

// EndpointInput is a new endpoint as a seller describes it.
type EndpointInput struct {
	URL string
	// Events lists subscribed event types; empty subscribes to all.
	Events      []string
	Description string
}

// EndpointChange is a partial update: nil fields stay as they are.
type EndpointChange struct {
	URL         *string
	Events      *[]string
	Description *string
	// Enabled true re-enables a disabled endpoint; false disables it.
	Enabled *bool
}

// EndpointWithSecret is an endpoint and its signing secret in clear, which
// is shown only when it is created and when it is rotated.
type EndpointWithSecret struct {
	Endpoint dbgen.WebhookEndpoint
	Secret   string
}

// Endpoints registers and manages sellers' webhook endpoints. The API and
// `tenure sellers set-webhook` both go through it, so both validate alike.
type Endpoints struct {
	store   *db.Store
	box     *SecretBox
	policy  URLPolicy
	overlap time.Duration
}

// NewEndpoints manages endpoints with the deployment's URL policy, secret
// key and rotation overlap.
func NewEndpoints(store *db.Store, cfg *config.Config) (*Endpoints, error) {
	box, err := NewSecretBox(cfg.Webhooks.SecretKey)
	if err != nil {
		return nil, err
	}
	return &Endpoints{store: store, box: box, policy: PolicyFor(cfg), overlap: cfg.Webhooks.RotationOverlap}, nil
}

// Create validates and registers an endpoint with a fresh secret.
func (e *Endpoints) Create(ctx context.Context, sellerID uuid.UUID, in EndpointInput) (EndpointWithSecret, error) {
	if err := e.checkURL(ctx, in.URL); err != nil {
		return EndpointWithSecret{}, err
	}
	if err := checkSubscriptions(in.Events); err != nil {
		return EndpointWithSecret{}, err
	}
	if err := checkDescription(in.Description); err != nil {
		return EndpointWithSecret{}, err
	}
	id := idempotency.NewID(ctx)
	if idempotency.Resumed(ctx) {
		// The request's first attempt may have registered the endpoint.
		ep, err := e.store.GetWebhookEndpoint(ctx, dbgen.GetWebhookEndpointParams{ID: id, SellerID: sellerID})
		if err == nil {
			secret, err := e.box.Open(ep.ID, ep.Secret)
			return EndpointWithSecret{Endpoint: ep, Secret: secret}, err
		}
		if !db.IsNotFound(err) {
			return EndpointWithSecret{}, err
		}
	}
	secret, err := NewSecret()
	if err != nil {
		return EndpointWithSecret{}, err
	}
	events := in.Events
	if events == nil {
		events = []string{}
	}
	var ep dbgen.WebhookEndpoint
	err = e.store.InTx(ctx, func(q *dbgen.Queries) error {
		n, err := q.CountWebhookEndpoints(ctx, sellerID)
		if err != nil {
			return err
		}
		if n >= MaxEndpoints {
			return ErrTooManyEndpoints
		}
		ep, err = q.CreateWebhookEndpoint(ctx, dbgen.CreateWebhookEndpointParams{
			ID: id, SellerID: sellerID, Url: in.URL, Events: events,
			Description: in.Description, Secret: e.box.Seal(id, secret),
		})
		return err
	})
	return EndpointWithSecret{Endpoint: ep, Secret: secret}, err
}

// Update changes the given fields. Disabling an endpoint (or re-enabling
// it) takes effect for deliveries at their next attempt; pending deliveries
// of a disabled endpoint are cancelled.
func (e *Endpoints) Update(ctx context.Context, sellerID, id uuid.UUID, ch EndpointChange) (dbgen.WebhookEndpoint, error) {
	params := dbgen.UpdateWebhookEndpointParams{ID: id, SellerID: sellerID, Url: ch.URL, Description: ch.Description, Enabled: ch.Enabled}
	if ch.URL != nil {
		if err := e.checkURL(ctx, *ch.URL); err != nil {
			return dbgen.WebhookEndpoint{}, err
		}
	}
	if ch.Events != nil {
		if err := checkSubscriptions(*ch.Events); err != nil {
			return dbgen.WebhookEndpoint{}, err
		}
		params.Events = append([]string{}, *ch.Events...)
	}
	if ch.Description != nil {
		if err := checkDescription(*ch.Description); err != nil {
			return dbgen.WebhookEndpoint{}, err
		}
	}
	if ch.Enabled != nil && !*ch.Enabled {
		reason := "disabled by the seller"
		params.DisabledReason = &reason
	}
	var ep dbgen.WebhookEndpoint
	err := e.store.InTx(ctx, func(q *dbgen.Queries) error {
		var err error
		ep, err = q.UpdateWebhookEndpoint(ctx, params)
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil || ep.DisabledAt == nil {
			return err
		}
		_, err = q.CancelPendingDeliveries(ctx, id)
		return err
	})
	return ep, err
}

// Rotate gives the endpoint a new secret. The previous secret keeps
// signing, next to the new one, for the configured overlap; a second
// rotation within the overlap retires the oldest secret at once.
func (e *Endpoints) Rotate(ctx context.Context, sellerID, id uuid.UUID) (EndpointWithSecret, error) {
	secret, err := NewSecret()
	if err != nil {
		return EndpointWithSecret{}, err
	}
	expires := time.Now().Add(e.overlap)
	ep, err := e.store.RotateWebhookEndpointSecret(ctx, dbgen.RotateWebhookEndpointSecretParams{
		ID: id, SellerID: sellerID, Secret: e.box.Seal(id, secret), PreviousExpiresAt: &expires,
	})
	if db.IsNotFound(err) {
		return EndpointWithSecret{}, ErrNotFound
	}
	return EndpointWithSecret{Endpoint: ep, Secret: secret}, err
}

// Delete removes an endpoint: it forgets its secrets and cancels its
// pending deliveries; the delivery history stays in the event log.
func (e *Endpoints) Delete(ctx context.Context, sellerID, id uuid.UUID) error {
	return e.store.InTx(ctx, func(q *dbgen.Queries) error {
		_, err := q.DeleteWebhookEndpoint(ctx, dbgen.DeleteWebhookEndpointParams{ID: id, SellerID: sellerID})
		if db.IsNotFound(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		_, err = q.CancelPendingDeliveries(ctx, id)
		return err
	})
}

func (e *Endpoints) checkURL(ctx context.Context, raw string) error {
	if raw == "" {
		return &FieldError{Field: "url", Message: "must not be empty"}
	}
	err := e.policy.Check(ctx, raw)
	var blocked *BlockedAddressError
	switch {
	case errors.As(err, &blocked):
		return &FieldError{Field: "url", Message: "is refused: " + blocked.Error() + "; production only calls public addresses", Refused: true}
	case err != nil:
		return &FieldError{Field: "url", Message: err.Error()}
	}
	return nil
}

func checkDescription(d string) error {
	if n := utf8.RuneCountInString(d); n > MaxDescriptionLength {
		return &FieldError{Field: "description", Message: fmt.Sprintf("must be at most %d characters, got %d", MaxDescriptionLength, n)}
	}
	return nil
}
