package auth

import (
	"context"
	"sync"
)

// maxCached bounds each cache. Only verified tokens are looked up, so its
// keys are client ids and offer ids Tenure issued tokens for; the bound
// guards a deployment with more of them active than that, which then asks
// the database more often.
const maxCached = 100_000

// announced caches what a row of the database says (a credential's
// generation, an offer's standing) for as long as PostgreSQL announces
// every change of such rows on channel, with the row's key as payload. A
// value is cached only while the notification connection listens (see
// Revocations.Listen), and forgotten when its key is announced; without
// that connection every lookup reads the database, so no cached answer
// outlives the knowledge that it is current.
type announced[K comparable, V any] struct {
	channel string
	// key reads an announcement's payload; false for one no key can be.
	key  func(payload string) (K, bool)
	read func(context.Context, K) (V, error)

	mu sync.Mutex
	// listening is true while the notification connection is up.
	listening bool
	// epoch counts invalidations: a lookup caches its answer only when none
	// happened while it read the database, or it could cache a value an
	// announcement made meanwhile had already made stale.
	epoch uint64
	known map[K]V
}

func newAnnounced[K comparable, V any](channel string, key func(string) (K, bool), read func(context.Context, K) (V, error)) *announced[K, V] {
	return &announced[K, V]{channel: channel, key: key, read: read, known: map[K]V{}}
}

// get answers k's value from the cache while listening, else from the
// database; read errors are returned and never cached.
func (a *announced[K, V]) get(ctx context.Context, k K) (V, error) {
	a.mu.Lock()
	if v, ok := a.known[k]; ok && a.listening {
		a.mu.Unlock()
		return v, nil
	}
	epoch, listening := a.epoch, a.listening
	a.mu.Unlock()

	v, err := a.read(ctx, k)
	if err != nil || !listening {
		return v, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.listening && a.epoch == epoch {
		if len(a.known) >= maxCached {
			clear(a.known)
		}
		a.known[k] = v
	}
	return v, nil
}

// setListening empties the cache and says whether it may be filled and used.
func (a *announced[K, V]) setListening(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.listening = on
	a.epoch++
	clear(a.known)
}

// forget drops the value of the key an announcement names. A payload that
// names no key empties the cache: it may still stand for a row.
func (a *announced[K, V]) forget(payload string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.epoch++
	k, ok := a.key(payload)
	if !ok {
		clear(a.known)
		return
	}
	delete(a.known, k)
}

// announcements is what the notification connection needs of a cache,
// whatever its keys and values.
type announcements interface {
	channelName() string
	setListening(on bool)
	forget(payload string)
}

func (a *announced[K, V]) channelName() string { return a.channel }
