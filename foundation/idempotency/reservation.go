// Package idempotency is the one place of safe retries. Its ledger records
// in PostgreSQL the requests sent with an Idempotency-Key: who runs each
// one under a lease, and its outcome, which every retry gets. Its
// reservation carries what a key reserved from the API's middleware (which
// claims the key) to the code that makes the request's effect, so that a
// retry after a crash repeats the same effect instead of making a second
// one: the resource the request creates gets the id reserved with the key,
// and the workflow update it sends gets an update id derived from it,
// which Temporal deduplicates.
//
// The reservation needs nothing but the context, so services, domain
// packages and workflow clients use it without knowing about HTTP.
package idempotency

import (
	"context"

	"github.com/google/uuid"
)

// Reservation is what the key of the request being served reserved.
type Reservation struct {
	// ID is the id of the resource the request creates; a retry of the
	// request reuses it.
	ID uuid.UUID
	// Resumed is set when the request takes over a key whose first request
	// stopped (its process died) without recording an outcome: the effect
	// may have happened already under ID.
	Resumed bool
}

type reservationKey struct{}

// With returns a context that carries a reservation.
func With(ctx context.Context, r Reservation) context.Context {
	return context.WithValue(ctx, reservationKey{}, r)
}

func from(ctx context.Context) (Reservation, bool) {
	r, ok := ctx.Value(reservationKey{}).(Reservation)
	return r, ok
}

// NewID is the id of the resource a request creates: the one reserved with
// its key, or a fresh UUIDv7 for a request without a key. A request creates
// at most one resource through it, so call it once per request.
func NewID(ctx context.Context) uuid.UUID {
	if r, ok := from(ctx); ok {
		return r.ID
	}
	return uuid.Must(uuid.NewV7())
}

// Resumed reports whether the request resumes one that may have made its
// effect already: a creation first looks for the resource under NewID.
func Resumed(ctx context.Context) bool {
	r, ok := from(ctx)
	return ok && r.Resumed
}

// UpdateID is the id of the workflow update a request sends: derived from
// its key's reservation, so the retry of a request whose first attempt sent
// the update joins that update (Temporal answers its outcome) instead of
// sending a second one. It is empty without a key, which lets the client
// choose a random id. A request sends at most one update per workflow.
func UpdateID(ctx context.Context) string {
	if r, ok := from(ctx); ok {
		return "idempotency-" + r.ID.String()
	}
	return ""
}
