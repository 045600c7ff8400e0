package webhook

import (
	"context"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// UndispatchedBacklog is the gauge of events committed whose deliveries
// nobody started yet: a few for an instant after each commit; a number that
// stays up means dispatching fails and the relay is catching up.
func UndispatchedBacklog(store *db.Store) telemetry.Backlog {
	return telemetry.Backlog{
		Name: "tenure_webhook_events_undispatched",
		Help: "Events committed whose deliveries were not started yet (the relay's work).",
		Count: func(ctx context.Context) (map[string]int64, error) {
			n, err := store.CountUndispatchedEvents(ctx)
			return map[string]int64{"": n}, err
		},
	}
}
