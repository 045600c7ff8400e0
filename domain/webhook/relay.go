package webhook

import (
	"context"
	"log/slog"
	"time"

	"github.com/tenurehq/tenure/db/dbgen"
)

// relayBatch is how many events one relay round dispatches at most.
const relayBatch = 100

// Relay dispatches events that were committed but never dispatched, which
// happens when a process stops between its commit and its Dispatch call.
// Every worker runs one; they share the work through row locks (FOR UPDATE
// SKIP LOCKED), so any number may run at once.
type Relay struct {
	dispatcher *Dispatcher
	interval   time.Duration
	grace      time.Duration
	logger     *slog.Logger
	cancel     context.CancelFunc
	done       chan struct{}
}

// NewRelay looks for undispatched events every interval, taking those
// older than grace (younger ones are left to the process that recorded
// them).
func NewRelay(d *Dispatcher, interval, grace time.Duration, logger *slog.Logger) *Relay {
	return &Relay{dispatcher: d, interval: interval, grace: grace, logger: logger}
}

// Start runs the relay in the background until Stop.
func (r *Relay) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.done = cancel, make(chan struct{})
	go func() {
		defer close(r.done)
		ticker := time.NewTicker(r.interval)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C:
			}
			if n, err := r.RunOnce(ctx); err != nil && ctx.Err() == nil {
				r.logger.Warn("webhook relay round failed; retrying at the next round", "error", err)
			} else if n > 0 {
				r.logger.Info("webhook relay dispatched undispatched events", "events", n)
			}
		}
	}()
}

// Stop ends the relay and waits for its current round.
func (r *Relay) Stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	<-r.done
}

// RunOnce dispatches one batch of undispatched events and says how many
// it found.
func (r *Relay) RunOnce(ctx context.Context) (int, error) {
	n := 0
	err := r.dispatcher.dispatch(ctx, func(q *dbgen.Queries) ([]dbgen.Event, error) {
		events, err := q.LockUndispatchedEvents(ctx, dbgen.LockUndispatchedEventsParams{
			GraceSeconds: r.grace.Seconds(), RowLimit: relayBatch,
		})
		n = len(events)
		return events, err
	})
	return n, err
}
