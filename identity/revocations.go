package identity

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db"
)

// credentialChanges is the channel migration 00050's trigger announces every
// change of a seller credential on, with its client id as payload.
const credentialChanges = "seller_credential_changed"

// maxKnownClients bounds the cache. Only verified tokens are looked up, so
// its keys are client ids Tenure issued; the bound guards a deployment with
// more active clients than that, which then asks the database more often.
const maxKnownClients = 100_000

// ErrRevoked is returned for a token whose credential has been rotated or
// deleted since the token was issued.
var ErrRevoked = errors.New("the access token was revoked")

// Revocations tells whether an access token was issued under its
// credential's current generation, which every rotation of the secret
// advances. It caches each client's generation only while its own
// connection LISTENs to the credential changes PostgreSQL announces at
// commit; without that connection it asks the database on every check, so
// no cached answer outlives the knowledge that it is current.
type Revocations struct {
	store  *db.Store
	logger *slog.Logger

	mu sync.Mutex
	// listening is true while the notification connection is up.
	listening bool
	// epoch counts invalidations: a lookup caches its answer only when none
	// happened while it read the database, or it could cache a generation a
	// rotation announced meanwhile had already made stale.
	epoch uint64
	known map[string]int32
}

// NewRevocations returns a checker that asks the database until Listen runs.
func NewRevocations(store *db.Store, logger *slog.Logger) *Revocations {
	return &Revocations{store: store, logger: logger, known: map[string]int32{}}
}

// Check returns an error wrapping ErrRevoked when the token's credential no
// longer exists or has been rotated since the token was issued; any other
// error means the database could not be asked.
func (r *Revocations) Check(ctx context.Context, c Claims) error {
	generation, err := r.generation(ctx, c.ClientID)
	switch {
	case db.IsNotFound(err):
		return fmt.Errorf("%w: client %s no longer exists", ErrRevoked, c.ClientID)
	case err != nil:
		return fmt.Errorf("reading the generation of client %s: %w", c.ClientID, err)
	case generation != c.Generation:
		return fmt.Errorf("%w: issued under generation %d of client %s, which is at %d", ErrRevoked, c.Generation, c.ClientID, generation)
	}
	return nil
}

func (r *Revocations) generation(ctx context.Context, clientID string) (int32, error) {
	r.mu.Lock()
	if generation, ok := r.known[clientID]; ok && r.listening {
		r.mu.Unlock()
		return generation, nil
	}
	epoch, listening := r.epoch, r.listening
	r.mu.Unlock()

	generation, err := r.store.GetSellerCredentialGeneration(ctx, clientID)
	if err != nil || !listening {
		return generation, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.listening && r.epoch == epoch {
		if len(r.known) >= maxKnownClients {
			clear(r.known)
		}
		r.known[clientID] = generation
	}
	return generation, nil
}

// Listen keeps the cache trustworthy until ctx ends: it LISTENs for
// credential changes on a connection of its own and forgets a client's
// generation when told of a change. While that connection is down the
// cache is dropped and unused, and Listen reconnects with a growing pause.
func (r *Revocations) Listen(ctx context.Context) {
	const firstPause, longestPause = time.Second, 30 * time.Second
	pause := firstPause
	for {
		connected, err := r.listenOnce(ctx)
		r.setListening(false)
		if ctx.Err() != nil {
			return
		}
		if connected {
			pause = firstPause
		}
		r.logger.WarnContext(ctx, "credential change notifications are down; every access token is checked against the database until they are back",
			"error", err, "retry_in", pause)
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, longestPause)
	}
}

// listenOnce listens until the connection fails or ctx ends; connected says
// whether it got as far as listening.
func (r *Revocations) listenOnce(ctx context.Context) (connected bool, err error) {
	config := r.store.Pool.Config().ConnConfig.Copy()
	config.RuntimeParams["application_name"] = "tenure credential changes"
	conn, err := pgx.ConnectConfig(ctx, config)
	if err != nil {
		return false, err
	}
	defer func() {
		closing, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = conn.Close(closing)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+credentialChanges); err != nil {
		return false, err
	}
	// Changes committed before LISTEN took effect were not announced to
	// this connection: trust starts with an empty cache.
	r.setListening(true)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, err
		}
		r.forget(n.Payload)
	}
}

// setListening empties the cache and says whether it may be filled and used.
func (r *Revocations) setListening(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.listening = on
	r.epoch++
	clear(r.known)
}

func (r *Revocations) forget(clientID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.epoch++
	delete(r.known, clientID)
}
