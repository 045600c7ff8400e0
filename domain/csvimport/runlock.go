package csvimport

import (
	"context"
	"time"

	"github.com/tenurehq/tenure/db/dbgen"
)

// runLockPoll is how often a run waiting for another run of the seller's
// imports asks for the lock again (and beats meanwhile).
const runLockPoll = 500 * time.Millisecond

// lockSellerImports waits until no other run of one of the seller's
// imports stores rows and keeps it so until release is called. A run
// stores two chunks side by side under the seller's catalog lock taken
// shared, which the chunks of another run must not join. The lock is a
// session's, on a connection kept for the run, so a worker that dies lets
// it go with its connection.
func (p Processor) lockSellerImports(ctx context.Context, job Job, beat func(Job)) (release func(), err error) {
	conn, err := p.Store.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	q := dbgen.New(conn)
	for {
		locked, err := q.TryLockSellerImportRuns(ctx, job.SellerID)
		if err != nil {
			conn.Release()
			return nil, err
		}
		if locked {
			break
		}
		beat(job)
		select {
		case <-ctx.Done():
			conn.Release()
			return nil, ctx.Err()
		case <-time.After(runLockPoll):
		}
	}
	return func() {
		// A connection that may still hold the lock must not go back
		// to the pool, where no run would ever take the lock again.
		if unlocked, err := q.UnlockSellerImportRuns(context.WithoutCancel(ctx), job.SellerID); err != nil || !unlocked {
			_ = conn.Conn().Close(context.WithoutCancel(ctx))
		}
		conn.Release()
	}, nil
}
