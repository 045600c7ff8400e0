package identity

// Listening reports whether r trusts its cache, for tests that wait for
// the notification connection.
func (r *Revocations) Listening() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.listening
}

// Cached reports whether r holds clientID's generation.
func (r *Revocations) Cached(clientID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.known[clientID]
	return ok
}
