package csvimport

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db/dbgen"
)

// runLockPoll is how often a run waiting for another run of the seller's
// imports asks for the lock again (and beats meanwhile).
const runLockPoll = 500 * time.Millisecond

// lockSellerImports waits until no other run of one of the seller's
// imports stores rows and keeps it so until release is called. A run
// stores two chunks side by side under the seller's catalog lock taken
// shared, which the chunks of another run must not join. The lock is a
// session's, on a connection of its own opened for the run rather than
// taken from the pool, which the chunks' transactions need whatever the
// number of runs; closing it lets the lock go, as does a worker's death.
func (p Processor) lockSellerImports(ctx context.Context, job Job, beat func(Job)) (release func(), err error) {
	conn, err := pgx.ConnectConfig(ctx, p.Store.Pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, err
	}
	release = func() { _ = conn.Close(context.WithoutCancel(ctx)) }
	q := dbgen.New(conn)
	for {
		locked, err := q.TryLockSellerImportRuns(ctx, job.SellerID)
		if err != nil {
			release()
			return nil, err
		}
		if locked {
			return release, nil
		}
		beat(job)
		select {
		case <-ctx.Done():
			release()
			return nil, ctx.Err()
		case <-time.After(runLockPoll):
		}
	}
}
