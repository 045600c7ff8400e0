package idempotency

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
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

// Ledger records the requests sent with an Idempotency-Key in PostgreSQL:
// who runs each one, and its outcome once it has one.
type Ledger struct {
	Store *db.Store
	// Sealer seals recorded bodies: some answers (a webhook endpoint's
	// creation and rotation) carry a secret, which is sealed at rest.
	Sealer Sealer
	// Lease is how long a request holds its key without renewing it: a
	// retry takes over the key of a request whose process died once its
	// lease has run out.
	Lease time.Duration
	Now   func() time.Time
}

// Sealer seals and opens the recorded bodies, each under the id of its
// reservation.
type Sealer interface {
	Seal(id uuid.UUID, plain string) []byte
	Open(id uuid.UUID, sealed []byte) (string, error)
}

// Request is a request sent with a key.
type Request struct {
	// Caller scopes the key: keys of different callers never meet.
	Caller, Key, Method, Path string
	// Fingerprint tells a retry of the request from another one.
	Fingerprint []byte
}

// Claim is what a request found when it claimed its key: either it runs
// (Attempt), or the key's first request says what to answer.
type Claim struct {
	// Attempt is set when the request runs under the key.
	Attempt *Attempt
	row     dbgen.IdempotencyKey
}

// Reused reports whether the key was first used for another request.
func (c Claim) Reused(req Request) bool {
	return !bytes.Equal(c.row.Fingerprint, req.Fingerprint)
}

// Completed reports whether the key's first request has an outcome.
func (c Claim) Completed() bool { return c.row.Status != nil }

// First is the method and path of the key's first request.
func (c Claim) First() (method, path string) { return c.row.Method, c.row.Path }

// Claim records a request as in flight under its key, or takes over one
// whose process stopped renewing its lease. Without an attempt, the claim
// says how the key stands.
func (l *Ledger) Claim(ctx context.Context, req Request) (Claim, error) {
	now := l.Now()
	token := uuid.New()
	until := now.Add(l.Lease)
	// A key released or purged between the two statements is claimed on
	// the next round.
	for range 3 {
		row, err := l.Store.ClaimIdempotencyKey(ctx, dbgen.ClaimIdempotencyKeyParams{
			Caller: req.Caller, Key: req.Key, Method: req.Method, Path: req.Path, Fingerprint: req.Fingerprint,
			ResourceID: uuid.Must(uuid.NewV7()), LeaseToken: &token, LeasedUntil: &until,
			CreatedAt: now, ExpiresAt: now.Add(keyRetention),
		})
		if err == nil {
			return Claim{Attempt: l.attempt(req, token, row, false)}, nil
		}
		if !db.IsNotFound(err) {
			return Claim{}, err
		}
		row, err = l.Store.GetIdempotencyKey(ctx, dbgen.GetIdempotencyKeyParams{Caller: req.Caller, Key: req.Key})
		if db.IsNotFound(err) {
			continue
		}
		if err != nil {
			return Claim{}, err
		}
		found := Claim{row: row}
		if found.Reused(req) || found.Completed() || (row.LeasedUntil != nil && row.LeasedUntil.After(now)) {
			return found, nil
		}
		taken, err := l.Store.TakeOverIdempotencyKey(ctx, dbgen.TakeOverIdempotencyKeyParams{
			Caller: req.Caller, Key: req.Key, LeaseToken: &token, LeasedUntil: &until, Now: &now,
		})
		if db.IsNotFound(err) {
			// Another retry took it over first, or it just completed.
			continue
		}
		if err != nil {
			return Claim{}, err
		}
		return Claim{Attempt: l.attempt(req, token, taken, true)}, nil
	}
	return Claim{}, errors.New("the idempotency key changed hands three times while it was claimed")
}

func (l *Ledger) attempt(req Request, token uuid.UUID, row dbgen.IdempotencyKey, resumed bool) *Attempt {
	return &Attempt{
		ledger: l, req: req, token: token,
		reservation: Reservation{ID: row.ResourceID, Resumed: resumed},
	}
}

// Outcome is the recorded answer of a key's first request.
type Outcome struct {
	Status      int
	ContentType string
	Body        []byte
}

// Outcome opens the recorded answer of a completed claim.
func (l *Ledger) Outcome(c Claim) (Outcome, error) {
	var plain string
	if len(c.row.Body) > 0 {
		var err error
		if plain, err = l.Sealer.Open(c.row.ResourceID, c.row.Body); err != nil {
			return Outcome{}, err
		}
	}
	out := Outcome{Status: int(*c.row.Status), Body: []byte(plain)}
	if c.row.ContentType != nil {
		out.ContentType = *c.row.ContentType
	}
	return out, nil
}

// Purge deletes every expired key, a batch at a time.
func (l *Ledger) Purge(ctx context.Context) (int64, error) {
	var total int64
	for {
		now := l.Now()
		n, err := l.Store.PurgeIdempotencyKeys(ctx, dbgen.PurgeIdempotencyKeysParams{Now: now, BatchSize: purgeBatch})
		total += n
		if err != nil || n < purgeBatch {
			return total, err
		}
	}
}

// PurgeLoop purges expired keys now and every purgeEvery until stop is
// called. Every API process runs one; concurrent purges delete disjoint
// rows or nothing.
func (l *Ledger) PurgeLoop(logger *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ticker := time.NewTicker(purgeEvery)
		defer ticker.Stop()
		for {
			if n, err := l.Purge(ctx); err != nil && ctx.Err() == nil {
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
