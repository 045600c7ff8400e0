package auth

import "github.com/google/uuid"

// Listening reports whether r trusts its caches, for tests that wait for
// the notification connection.
func (r *Revocations) Listening() bool {
	r.generations.mu.Lock()
	defer r.generations.mu.Unlock()
	return r.generations.listening
}

// Cached reports whether r holds clientID's generation.
func (r *Revocations) Cached(clientID string) bool {
	return r.generations.has(clientID)
}

// CachedOffer reports whether r holds the standing of an offer.
func (r *Revocations) CachedOffer(offerID uuid.UUID) bool {
	return r.standings.has(offerID)
}

func (a *announced[K, V]) has(k K) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.known[k]
	return ok
}
