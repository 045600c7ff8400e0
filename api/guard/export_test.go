package guard

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/idempotency"
)

// What guard_test reaches inside the package: the secret comparisons of the
// token endpoint, and the idempotency middleware on its own, with a clock
// and a lease the test chooses.

// CountSecretComparisons counts the client secret comparisons (bcrypt) of
// every token endpoint until the test ends.
func CountSecretComparisons(t testing.TB) *atomic.Int64 {
	var n atomic.Int64
	compare := compareSecret
	compareSecret = func(hash, secret string) bool {
		n.Add(1)
		return compare(hash, secret)
	}
	t.Cleanup(func() { compareSecret = compare })
	return &n
}

// Fingerprint identifies a request sent with a key.
var Fingerprint = fingerprint

// KeyMiddleware is the idempotency middleware and its ledger.
type KeyMiddleware struct{ m *idempotentRequests }

// NewKeyMiddleware builds the middleware over a store; caller scopes keys.
func NewKeyMiddleware(store *db.Store, box *webhook.SecretBox, lease time.Duration, now func() time.Time,
	logger *slog.Logger, caller func(*fiber.Ctx) (string, bool)) KeyMiddleware {
	return KeyMiddleware{&idempotentRequests{
		ledger: &idempotency.Ledger{Store: store, Sealer: box, Lease: lease, Now: now}, caller: caller, logger: logger,
	}}
}

// Handle is the middleware.
func (k KeyMiddleware) Handle(c *fiber.Ctx) error { return k.m.handle(c) }

// Purge deletes expired keys.
func (k KeyMiddleware) Purge(ctx context.Context) (int64, error) { return k.m.ledger.Purge(ctx) }

// Claim claims a key for a POST as a process that dies right after would.
func (k KeyMiddleware) Claim(ctx context.Context, caller, key, path string, body []byte) (idempotency.Reservation, error) {
	claim, err := k.m.ledger.Claim(ctx, idempotency.Request{
		Caller: caller, Key: key, Method: http.MethodPost, Path: path,
		Fingerprint: fingerprint(http.MethodPost, path, body),
	})
	if err != nil || claim.Attempt == nil {
		return idempotency.Reservation{}, err
	}
	return claim.Attempt.Reservation(), nil
}

// The text no answer may show, and how the contract's limits are read.
var (
	Internals = internals
	MaxLength = maxLength
	MaxItems  = maxItems
	ExtLimit  = extLimit
)
