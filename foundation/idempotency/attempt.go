package idempotency

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// Attempt is one request running under its key, holding the key's lease.
type Attempt struct {
	ledger      *Ledger
	req         Request
	token       uuid.UUID
	reservation Reservation
}

// Reservation is what the key reserved for the request's effect.
func (a *Attempt) Reservation() Reservation { return a.reservation }

// Key is the key the request runs under.
func (a *Attempt) Key() string { return a.req.Key }

// KeepAlive renews the lease while the request runs, so no retry takes
// over a request that is still being served; stop ends it.
func (a *Attempt) KeepAlive(ctx context.Context, logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(a.ledger.Lease / 3)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
			err := a.renew(ctx, a.ledger.Now().Add(a.ledger.Lease))
			if errors.Is(err, errLeaseLost) {
				// A retry took the request over: it repeats the same effect.
				logger.Warn("an idempotency key's lease was lost while its request ran", "key", a.req.Key)
				return
			}
			if err != nil && ctx.Err() == nil {
				logger.Warn("renewing an idempotency key's lease failed", "key", a.req.Key, "error", err)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// Complete records the request's outcome, which every retry gets.
func (a *Attempt) Complete(ctx context.Context, out Outcome) error {
	code := int32(out.Status)
	n, err := a.ledger.Store.CompleteIdempotencyKey(ctx, dbgen.CompleteIdempotencyKeyParams{
		Caller: a.req.Caller, Key: a.req.Key, LeaseToken: &a.token,
		Status: &code, ContentType: &out.ContentType, Body: a.ledger.Sealer.Seal(a.reservation.ID, string(out.Body)),
	})
	if err == nil && n == 0 {
		return errLeaseLost
	}
	return err
}

// errLeaseLost says a retry took the request over: its outcome is the
// retry's to record.
var errLeaseLost = errors.New("the idempotency key's lease was taken over by a retry")

// renew moves the end of the attempt's lease.
func (a *Attempt) renew(ctx context.Context, until time.Time) error {
	n, err := a.ledger.Store.RenewIdempotencyLease(ctx, dbgen.RenewIdempotencyLeaseParams{
		Caller: a.req.Caller, Key: a.req.Key, LeaseToken: &a.token, LeasedUntil: &until,
	})
	if err == nil && n == 0 {
		return errLeaseLost
	}
	return err
}

// Forget deletes the key of a request refused as sent, so the client can
// send the key again with any request.
func (a *Attempt) Forget(ctx context.Context) error {
	return a.ledger.Store.ForgetIdempotencyKey(ctx, dbgen.ForgetIdempotencyKeyParams{
		Caller: a.req.Caller, Key: a.req.Key, LeaseToken: &a.token,
	})
}

// Yield ends the lease at once: the next retry of the request takes it
// over and resumes it.
func (a *Attempt) Yield(ctx context.Context) error {
	return a.renew(ctx, a.ledger.Now())
}
