package activities

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// Deliveries performs the attempts of delivery workflows and records them.
type Deliveries struct {
	Store  *db.Store
	Box    *webhook.SecretBox
	Sender *webhook.Sender
	Logger *slog.Logger
	// Metrics counts the attempts sent and the delivery latency; nil
	// counts nothing.
	Metrics *telemetry.Metrics
}

// AttemptInput names one attempt of one delivery run.
type AttemptInput struct {
	EventID    uuid.UUID
	EndpointID uuid.UUID
	Run        int32
	Attempt    int32
	Timeout    time.Duration
}

// Verdict is what an attempt means for the delivery.
type Verdict string

const (
	// VerdictDelivered ends the delivery: the endpoint answered 2xx.
	VerdictDelivered Verdict = "delivered"
	// VerdictFailed is a failed attempt; the next one follows the schedule.
	VerdictFailed Verdict = "failed"
	// VerdictGone ends the delivery: the endpoint answered 410 and is disabled.
	VerdictGone Verdict = "gone"
	// VerdictStopped ends the delivery without sending: the endpoint is
	// disabled or deleted, or the delivery was settled elsewhere.
	VerdictStopped Verdict = "stopped"
)

// AttemptOutcome is what one attempt did.
type AttemptOutcome struct {
	Verdict     Verdict
	AttemptedAt time.Time
	StatusCode  int
	Latency     time.Duration
	// ErrorClass says why a failed attempt failed (timeout,
	// connection_refused, http_status, ...); empty when delivered.
	ErrorClass string
	// Excerpt is the beginning of the response body.
	Excerpt string
}

// RecordInput is an attempt and its outcome; Last says no attempt follows.
type RecordInput struct {
	Attempt AttemptInput
	Outcome AttemptOutcome
	Last    bool
}

// goneReason is why an endpoint that answered 410 is disabled.
const goneReason = "the endpoint answered 410 Gone"

// SendAttempt makes one attempt of a delivery run. It first checks that the
// run is still pending and its endpoint enabled (otherwise the verdict is
// stopped and nothing is sent), then claims the attempt in the database and
// only then sends. Errors before the claim are returned, and Temporal
// retries them; after the claim it never fails, so Temporal never sends
// again. An execution that finds its attempt claimed by an earlier one that
// died mid-send reports it as interrupted without sending.
//
// It heartbeats while it runs when its workflow gave it a heartbeat
// timeout, so that the server retries an attempt whose worker died within
// seconds rather than at the start-to-close timeout.
func (w *Deliveries) SendAttempt(ctx context.Context, in AttemptInput) (AttemptOutcome, error) {
	defer heartbeating(ctx)()
	stopped := AttemptOutcome{Verdict: VerdictStopped}
	dl, err := w.Store.GetDelivery(ctx, dbgen.GetDeliveryParams{EventID: in.EventID, EndpointID: in.EndpointID})
	if err != nil {
		return stopped, err
	}
	if dl.Run != in.Run || dl.Status != webhook.DeliveryPending {
		return stopped, nil
	}
	ep, err := w.Store.GetWebhookEndpointByID(ctx, in.EndpointID)
	if err != nil {
		return stopped, err
	}
	if ep.DeletedAt != nil || ep.DisabledAt != nil {
		return stopped, nil
	}
	ev, err := w.Store.GetEventByID(ctx, in.EventID)
	if err != nil {
		return stopped, err
	}
	now := time.Now()
	secrets, err := w.Box.SigningSecrets(ep, now)
	if err != nil {
		return stopped, err
	}
	key := dbgen.StartAttemptParams{EventID: in.EventID, EndpointID: in.EndpointID, Run: in.Run, Attempt: in.Attempt}
	if _, err := w.Store.StartAttempt(ctx, key); db.IsNotFound(err) {
		return w.claimedBefore(ctx, key)
	} else if err != nil {
		return stopped, err
	}
	out := w.Sender.Send(ctx, ep.Url, webhook.Message{
		ID: ev.ID.String(), Type: ev.Type, Body: ev.Payload, Secrets: secrets, Timestamp: now,
	})
	outcome := attemptOutcome(now, out)
	w.Metrics.WebhookAttempt(string(outcome.Verdict), outcome.ErrorClass)
	if outcome.Verdict == VerdictDelivered {
		// The event's row was written in the transaction of the change
		// it announces: its creation is the commit, to a few milliseconds.
		w.Metrics.WebhookDelivered(time.Since(ev.CreatedAt))
	}
	return outcome, nil
}

// claimedBefore reports an attempt an earlier execution claimed: its
// recorded outcome, or interrupted when that execution died while sending.
func (w *Deliveries) claimedBefore(ctx context.Context, key dbgen.StartAttemptParams) (AttemptOutcome, error) {
	a, err := w.Store.GetAttempt(ctx, dbgen.GetAttemptParams(key))
	if err != nil {
		return AttemptOutcome{Verdict: VerdictStopped}, err
	}
	if a.Outcome == "sending" {
		return AttemptOutcome{Verdict: VerdictFailed, AttemptedAt: a.StartedAt, ErrorClass: webhook.ClassInterrupted,
			Excerpt: "the worker stopped during this attempt; whether the request arrived is unknown"}, nil
	}
	out := AttemptOutcome{Verdict: Verdict(a.Outcome), AttemptedAt: a.StartedAt}
	if a.Outcome == "interrupted" {
		out.Verdict = VerdictFailed
	}
	out.StatusCode = int(optional.Value(a.StatusCode))
	out.Latency = time.Duration(optional.Value(a.LatencyMs)) * time.Millisecond
	out.ErrorClass, out.Excerpt = optional.Value(a.ErrorClass), optional.Value(a.ResponseExcerpt)
	return out, nil
}

func attemptOutcome(at time.Time, o webhook.Outcome) AttemptOutcome {
	out := AttemptOutcome{
		Verdict: VerdictFailed, AttemptedAt: at, StatusCode: o.StatusCode,
		Latency: o.Latency, ErrorClass: o.ErrorClass, Excerpt: o.Excerpt,
	}
	switch {
	case o.Delivered:
		out.Verdict = VerdictDelivered
	case o.Gone():
		out.Verdict = VerdictGone
	}
	return out
}

// RecordAttempt records an attempt's outcome once and settles the delivery
// run: delivered on 2xx, failed after the last attempt or on 410 (which
// also disables the endpoint and cancels its other pending deliveries),
// cancelled when the attempt was stopped. Running it twice changes nothing.
func (w *Deliveries) RecordAttempt(ctx context.Context, in RecordInput) error {
	a, o := in.Attempt, in.Outcome
	settle := func(q *dbgen.Queries, status string) error {
		return q.SettleDelivery(ctx, dbgen.SettleDeliveryParams{EventID: a.EventID, EndpointID: a.EndpointID, Run: a.Run, Status: status})
	}
	return w.Store.InTx(ctx, func(q *dbgen.Queries) error {
		if o.Verdict == VerdictStopped {
			return settle(q, webhook.DeliveryCancelled)
		}
		outcome := string(o.Verdict)
		latency := int32(o.Latency.Milliseconds())
		latencyMs := &latency
		if o.ErrorClass == webhook.ClassInterrupted {
			outcome, latencyMs = "interrupted", nil
		}
		_, err := q.FinishAttempt(ctx, dbgen.FinishAttemptParams{
			EventID: a.EventID, EndpointID: a.EndpointID, Run: a.Run, Attempt: a.Attempt,
			Outcome:         outcome,
			StatusCode:      optional.NonZero(int32(o.StatusCode)),
			LatencyMs:       latencyMs,
			ErrorClass:      optional.NonZero(o.ErrorClass),
			ResponseExcerpt: optional.NonZero(o.Excerpt),
		})
		switch {
		case db.IsNotFound(err):
			// Recorded by an earlier execution; settling again is harmless.
		case err != nil:
			return err
		default:
			err := q.CountDeliveryAttempt(ctx, dbgen.CountDeliveryAttemptParams{
				EventID: a.EventID, EndpointID: a.EndpointID, Run: a.Run, AttemptedAt: &o.AttemptedAt,
			})
			if err != nil {
				return err
			}
		}
		switch {
		case o.Verdict == VerdictDelivered:
			return settle(q, webhook.DeliveryDelivered)
		case o.Verdict == VerdictGone:
			if err := settle(q, webhook.DeliveryFailed); err != nil {
				return err
			}
			reason := goneReason
			if _, err := q.DisableWebhookEndpoint(ctx, dbgen.DisableWebhookEndpointParams{ID: a.EndpointID, DisabledReason: &reason}); err != nil {
				return err
			}
			_, err := q.CancelPendingDeliveries(ctx, a.EndpointID)
			return err
		case in.Last:
			return settle(q, webhook.DeliveryFailed)
		}
		return nil
	})
}
