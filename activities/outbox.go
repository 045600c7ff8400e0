package activities

import (
	"context"
	"log/slog"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// emitFunc records an event in the transaction it was handed in.
type emitFunc func(webhook.NewEvent) error

// effects are what a change's transaction does beyond its rows: the events
// it records (the outbox) and the status changes it makes, both acted on
// once the transaction has committed.
type effects struct {
	ctx    context.Context
	q      *dbgen.Queries
	events []uuid.UUID
	moves  []move
}

// move is a status change of an offer or order; from is empty for a
// creation.
type move struct{ entity, from, to string }

// emit records an event in the transaction.
func (fx *effects) emit(e webhook.NewEvent) error {
	id, err := webhook.Record(fx.ctx, fx.q, e)
	fx.events = append(fx.events, id)
	return err
}

// moved notes a status change the transaction makes, counted once it has
// committed (a retried activity whose first run committed notes none).
func (fx *effects) moved(entity, from, to string) {
	fx.moves = append(fx.moves, move{entity, from, to})
}

// changeWithEvents runs change in one transaction in which it may record
// events (the outbox) and status changes, then counts the changes and hands
// the recorded events to the dispatcher. A failed dispatch is only logged:
// the events are committed, and the relay of a worker dispatches them.
func changeWithEvents(ctx context.Context, store *db.Store, dispatcher *webhook.Dispatcher, logger *slog.Logger, metrics *telemetry.Metrics,
	change func(q *dbgen.Queries, fx *effects) error) error {
	var fx *effects
	err := store.InTx(ctx, func(q *dbgen.Queries) error {
		fx = &effects{ctx: ctx, q: q}
		return change(q, fx)
	})
	if err != nil {
		return err
	}
	for _, m := range fx.moves {
		metrics.Transition(m.entity, m.from, m.to)
	}
	if len(fx.events) == 0 {
		return nil
	}
	if err := dispatcher.Dispatch(ctx, fx.events...); err != nil {
		logger.WarnContext(ctx, "events committed but not dispatched; the relay will", "events", fx.events, "error", err)
	}
	return nil
}
