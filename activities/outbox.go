package activities

import (
	"context"
	"log/slog"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/webhook"
)

// emitFunc records an event in the transaction it was handed in.
type emitFunc func(webhook.NewEvent) error

// changeWithEvents runs change in one transaction in which it may record
// events (the outbox), then hands the recorded events to the dispatcher.
// A failed dispatch is only logged: the events are committed, and the
// relay of a worker dispatches them.
func changeWithEvents(ctx context.Context, store *db.Store, dispatcher *webhook.Dispatcher, logger *slog.Logger,
	change func(q *dbgen.Queries, emit emitFunc) error) error {
	var ids []uuid.UUID
	err := store.InTx(ctx, func(q *dbgen.Queries) error {
		ids = ids[:0]
		return change(q, func(e webhook.NewEvent) error {
			id, err := webhook.Record(ctx, q, e)
			ids = append(ids, id)
			return err
		})
	})
	if err != nil || len(ids) == 0 {
		return err
	}
	if err := dispatcher.Dispatch(ctx, ids...); err != nil {
		logger.WarnContext(ctx, "events committed but not dispatched; the relay will", "events", ids, "error", err)
	}
	return nil
}
