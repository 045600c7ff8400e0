package testenv

import (
	"context"
	"testing"
	"time"

	"github.com/tenurehq/tenure/db"
)

// autovacuumNaptime is how often PostgreSQL's autovacuum looks at the
// tables by default (autovacuum_naptime).
const autovacuumNaptime = time.Minute

// StandInForAutovacuum does, when the server's autovacuum is off, what it
// would do for a benchmark's database: VACUUM (ANALYZE) now and once a
// minute until the benchmark ends. A machine for tests may run PostgreSQL
// without autovacuum; a deployment does not, and without fresh statistics
// a statement prepared while its table was nearly empty keeps the plan it
// got then (an offer read by id through an index on its seller alone, for
// one), so a benchmark would measure what no deployment pays. Its CPU is
// PostgreSQL's, counted with the rest, as autovacuum's is. It says so in
// the log, which a benchmark always prints.
func StandInForAutovacuum(tb testing.TB, store *db.Store) {
	tb.Helper()
	var setting string
	if err := store.Pool.QueryRow(tb.Context(), "SHOW autovacuum").Scan(&setting); err != nil {
		tb.Fatal(err)
	}
	if setting == "on" {
		return
	}
	tb.Log("PostgreSQL's autovacuum is off: VACUUM (ANALYZE) now and every minute, as autovacuum would")
	vacuum := func(ctx context.Context) error {
		_, err := store.Pool.Exec(ctx, "VACUUM (ANALYZE)")
		return err
	}
	if err := vacuum(tb.Context()); err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(autovacuumNaptime)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if err := vacuum(ctx); err != nil && ctx.Err() == nil {
					tb.Errorf("the stand-in for autovacuum: %v", err)
					return
				}
			}
		}
	}()
	tb.Cleanup(func() {
		cancel()
		<-done
	})
}
