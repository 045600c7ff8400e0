package api

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/idempotency"
)

// Keeping and purging keys.
const (
	// keyRetention is how long a key is kept: a retry within it gets the
	// first outcome; after it, the key may be used for a new request.
	keyRetention = 24 * time.Hour
	// purgeEvery is how often each API process deletes expired keys.
	purgeEvery = 10 * time.Minute
	// purgeBatch bounds the rows one DELETE removes, so a purge never holds
	// many locks at once.
	purgeBatch = 1000
)

// keyLedger records the requests sent with an Idempotency-Key in
// PostgreSQL: who runs each one, and its outcome once it has one.
type keyLedger struct {
	store *db.Store
	// box seals recorded bodies: the answers of webhook endpoint creation
	// and rotation carry the endpoint's secret, which is sealed at rest.
	box   *webhook.SecretBox
	lease time.Duration
	now   func() time.Time
}

// newKeyLedger keeps the keys of a deployment in its database.
func newKeyLedger(d Deps) (*keyLedger, error) {
	box, err := webhook.NewSecretBox(d.Config.Webhooks.SecretKey)
	if err != nil {
		return nil, err
	}
	return &keyLedger{store: d.Store, box: box, lease: d.Config.Idempotency.Lease, now: time.Now}, nil
}

// keyRequest is a request sent with a key.
type keyRequest struct {
	caller, key, method, path string
	// fingerprint tells a retry of the request from another one.
	fingerprint []byte
}

// keyClaim is what a request found when it claimed its key: either it
// runs (attempt), or the key's row says what to answer.
type keyClaim struct {
	attempt *keyAttempt
	row     dbgen.IdempotencyKey
}

// reused reports whether the key was first used for another request.
func (k keyClaim) reused(req keyRequest) bool {
	return !bytes.Equal(k.row.Fingerprint, req.fingerprint)
}

// completed reports whether the key's first request has an outcome.
func (k keyClaim) completed() bool { return k.row.Status != nil }

// claim records a request as in flight under its key, or takes over one
// whose process stopped renewing its lease. Without an attempt, the
// returned row is the key's current state.
func (l *keyLedger) claim(ctx context.Context, req keyRequest) (keyClaim, error) {
	now := l.now()
	token := uuid.New()
	until := now.Add(l.lease)
	// A key released or purged between the two statements is claimed on
	// the next round.
	for range 3 {
		row, err := l.store.ClaimIdempotencyKey(ctx, dbgen.ClaimIdempotencyKeyParams{
			Caller: req.caller, Key: req.key, Method: req.method, Path: req.path, Fingerprint: req.fingerprint,
			ResourceID: uuid.Must(uuid.NewV7()), LeaseToken: &token, LeasedUntil: &until,
			CreatedAt: now, ExpiresAt: now.Add(keyRetention),
		})
		if err == nil {
			return keyClaim{attempt: l.attempt(req, token, row, false)}, nil
		}
		if !db.IsNotFound(err) {
			return keyClaim{}, err
		}
		row, err = l.store.GetIdempotencyKey(ctx, dbgen.GetIdempotencyKeyParams{Caller: req.caller, Key: req.key})
		if db.IsNotFound(err) {
			continue
		}
		if err != nil {
			return keyClaim{}, err
		}
		found := keyClaim{row: row}
		if found.reused(req) || found.completed() || (row.LeasedUntil != nil && row.LeasedUntil.After(now)) {
			return found, nil
		}
		taken, err := l.store.TakeOverIdempotencyKey(ctx, dbgen.TakeOverIdempotencyKeyParams{
			Caller: req.caller, Key: req.key, LeaseToken: &token, LeasedUntil: &until, Now: &now,
		})
		if db.IsNotFound(err) {
			// Another retry took it over first, or it just completed.
			continue
		}
		if err != nil {
			return keyClaim{}, err
		}
		return keyClaim{attempt: l.attempt(req, token, taken, true)}, nil
	}
	return keyClaim{}, errors.New("the idempotency key changed hands three times while it was claimed")
}

func (l *keyLedger) attempt(req keyRequest, token uuid.UUID, row dbgen.IdempotencyKey, resumed bool) *keyAttempt {
	return &keyAttempt{
		ledger: l, req: req, token: token,
		reservation: idempotency.Reservation{ID: row.ResourceID, Resumed: resumed},
	}
}

// outcome opens the recorded answer of a completed key.
func (l *keyLedger) outcome(row dbgen.IdempotencyKey) (status int, contentType string, body []byte, err error) {
	var plain string
	if len(row.Body) > 0 {
		if plain, err = l.box.Open(row.ResourceID, row.Body); err != nil {
			return 0, "", nil, err
		}
	}
	if row.ContentType != nil {
		contentType = *row.ContentType
	}
	return int(*row.Status), contentType, []byte(plain), nil
}

// purge deletes every expired key, a batch at a time.
func (l *keyLedger) purge(ctx context.Context) (int64, error) {
	var total int64
	for {
		now := l.now()
		n, err := l.store.PurgeIdempotencyKeys(ctx, dbgen.PurgeIdempotencyKeysParams{Now: now, BatchSize: purgeBatch})
		total += n
		if err != nil || n < purgeBatch {
			return total, err
		}
	}
}

// purgeWhileServing purges expired keys while app serves: when it starts
// listening, then every purgeEvery until it shuts down. Every API process
// does; concurrent purges delete disjoint rows or nothing.
func (l *keyLedger) purgeWhileServing(app *fiber.App, logger *slog.Logger) {
	stop := func() {}
	app.Hooks().OnListen(func(fiber.ListenData) error {
		stop = l.purgeLoop(logger)
		return nil
	})
	app.Hooks().OnShutdown(func() error {
		stop()
		return nil
	})
}

// purgeLoop purges expired keys now and every purgeEvery until stop is
// called.
func (l *keyLedger) purgeLoop(logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ticker := time.NewTicker(purgeEvery)
		defer ticker.Stop()
		for {
			if n, err := l.purge(ctx); err != nil && ctx.Err() == nil {
				logger.Warn("purging expired idempotency keys failed; the next round retries", "error", err)
			} else if n > 0 {
				logger.Info("purged expired idempotency keys", "keys", n)
			}
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
		}
	}()
	return func() {
		cancel()
		wg.Wait()
	}
}

// keyAttempt is one request running under its key, holding the key's
// lease.
type keyAttempt struct {
	ledger      *keyLedger
	req         keyRequest
	token       uuid.UUID
	reservation idempotency.Reservation
}

// keepAlive renews the lease while the request runs, so no retry takes
// over a request that is still being served; stop ends it.
func (a *keyAttempt) keepAlive(ctx context.Context, logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(a.ledger.lease / 3)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
			err := a.renew(ctx, a.ledger.now().Add(a.ledger.lease))
			if errors.Is(err, errLeaseLost) {
				// A retry took the request over: it repeats the same effect.
				logger.Warn("an idempotency key's lease was lost while its request ran", "key", a.req.key)
				return
			}
			if err != nil && ctx.Err() == nil {
				logger.Warn("renewing an idempotency key's lease failed", "key", a.req.key, "error", err)
			}
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// complete records the request's outcome, which every retry gets.
func (a *keyAttempt) complete(ctx context.Context, status int, contentType string, body []byte) error {
	code := int32(status)
	n, err := a.ledger.store.CompleteIdempotencyKey(ctx, dbgen.CompleteIdempotencyKeyParams{
		Caller: a.req.caller, Key: a.req.key, LeaseToken: &a.token,
		Status: &code, ContentType: &contentType, Body: a.ledger.box.Seal(a.reservation.ID, string(body)),
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
func (a *keyAttempt) renew(ctx context.Context, until time.Time) error {
	n, err := a.ledger.store.RenewIdempotencyLease(ctx, dbgen.RenewIdempotencyLeaseParams{
		Caller: a.req.caller, Key: a.req.key, LeaseToken: &a.token, LeasedUntil: &until,
	})
	if err == nil && n == 0 {
		return errLeaseLost
	}
	return err
}

// forget deletes the key of a request refused as sent, so the client can
// send the key again with any request.
func (a *keyAttempt) forget(ctx context.Context) error {
	return a.ledger.store.ForgetIdempotencyKey(ctx, dbgen.ForgetIdempotencyKeyParams{
		Caller: a.req.caller, Key: a.req.key, LeaseToken: &a.token,
	})
}

// yield ends the lease at once: the next retry of the request takes it
// over and resumes it.
func (a *keyAttempt) yield(ctx context.Context) error {
	return a.renew(ctx, a.ledger.now())
}
