package collections

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Run is a collection run as planned: its date, the collection date it
// asks for, and how many items this call submitted (0 when a repeated run
// found them submitted already).
type Run struct {
	ID             uuid.UUID
	RunDate        civil.Date
	CollectionDate civil.Date
	Submitted      int
}

// Submit plans the run of a date: it opens the run and submits every
// owed installment and charge as an item, with their journal, in one
// transaction, so a crash leaves all of it or none. A repeated run
// submits nothing new for what is already open.
func (r *Runner) Submit(ctx context.Context, runDate civil.Date) (Run, error) {
	run := Run{ID: RunID(runDate), RunDate: runDate, CollectionDate: CollectionDateOf(runDate, r.BankDays)}
	err := r.Store.InTx(ctx, func(q *dbgen.Queries) error {
		row, err := q.OpenCollectionRun(ctx, dbgen.OpenCollectionRunParams{
			ID: run.ID, RunDate: runDate.Midnight(time.UTC), CollectionDate: run.CollectionDate.Midnight(time.UTC),
		})
		if err != nil {
			return err
		}
		// A run resumed on another day keeps the date it planned with.
		run.CollectionDate = civil.DateOf(row.CollectionDate)
		submitted, err := q.SubmitOwed(ctx, dbgen.SubmitOwedParams{
			RunID: run.ID, CollectionDate: run.CollectionDate.Midnight(time.UTC), RepresentReasons: sepa.RepresentableReasons(),
		})
		if err != nil {
			return err
		}
		run.Submitted = len(submitted)
		return postSubmitted(ctx, q, run.ID, submitted)
	})
	return run, err
}
