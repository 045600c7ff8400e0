package activities

import (
	"context"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"

	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Collections runs the daily collection run's two steps: submitting what
// is owed, then writing the run's pain.008 files. Both are idempotent: a
// retried step finds the rows its first try committed.
type Collections struct {
	Runner *collections.Runner
}

// CollectionRunDate names the run of a day.
type CollectionRunDate struct {
	RunDate civil.Date
}

// CollectionRunPlanned is a run whose items are submitted.
type CollectionRunPlanned struct {
	RunID          uuid.UUID
	CollectionDate civil.Date
	Submitted      int
}

// CollectionRunWritten is a run whose files are stored: how many, and
// how many collections they hold.
type CollectionRunWritten struct {
	Files        int
	Transactions int
}

// SubmitCollections submits the owed installments and charges of a day's
// run with their journals.
func (a *Collections) SubmitCollections(ctx context.Context, in CollectionRunDate) (CollectionRunPlanned, error) {
	defer beat(ctx)()
	run, err := a.Runner.Submit(ctx, in.RunDate)
	if err != nil {
		return CollectionRunPlanned{}, err
	}
	return CollectionRunPlanned{RunID: run.ID, CollectionDate: run.CollectionDate, Submitted: run.Submitted}, nil
}

// WriteCollectionFiles writes and stores a planned run's files.
func (a *Collections) WriteCollectionFiles(ctx context.Context, in CollectionRunPlanned) (CollectionRunWritten, error) {
	defer beat(ctx)()
	files, err := a.Runner.WriteFiles(ctx, in.RunID)
	if err != nil {
		return CollectionRunWritten{}, err
	}
	out := CollectionRunWritten{Files: len(files)}
	for _, f := range files {
		out.Transactions += int(f.NbOfTxs)
	}
	return out, nil
}

// heartbeatEvery is how often a long collection step tells Temporal its
// worker is alive; the workflow's heartbeat timeout is a few of them.
const heartbeatEvery = 2 * time.Second

// beat heartbeats until the returned stop is called: a worker killed
// during a step misses its beats, and Temporal retries the step on another
// worker after the heartbeat timeout rather than the step's whole timeout.
func beat(ctx context.Context) (stop func()) {
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(heartbeatEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}
