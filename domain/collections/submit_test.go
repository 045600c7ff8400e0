package collections_test

import (
	"testing"

	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// TestASubmissionReadsTheItemsTableOnceWhateverItsStatistics submits a
// run of 3,000 owed installments after the items table was analysed
// empty, as a deployment's is after a VACUUM ANALYZE before its first
// run. The statement reads what earlier runs did from the table it fills;
// looked up per owed row, a planner that believes the table empty scans
// it for each row, rows inserted so far included, and the run grows with
// the square of its items (100,000 did not finish in ten minutes; these
// 3,000 touched 166 pages of the table per item). Read in one pass, the
// inserts themselves are most of it: about six pages per item on
// PostgreSQL 15.
func TestASubmissionReadsTheItemsTableOnceWhateverItsStatistics(t *testing.T) {
	e := newEnv(t)
	const contracts = 300
	e.owedInBulk(t, contracts)
	e.exec(t, "VACUUM ANALYZE collection_items")

	// One connection, so that its backend's statistics hold the whole
	// submission and are flushed when the test asks.
	single := testenv.Connect(t, e.store.Pool.Config().ConnString(), 1)
	runner := collectiontest.Runner(t, single, e.ring)
	pages := func() int64 {
		t.Helper()
		if _, err := single.Pool.Exec(t.Context(), "SELECT pg_stat_force_next_flush()"); err != nil {
			t.Fatal(err)
		}
		var n int64
		err := single.Pool.QueryRow(t.Context(), `SELECT coalesce(heap_blks_hit + heap_blks_read, 0) FROM pg_statio_user_tables WHERE relname = 'collection_items'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := pages()
	run, err := runner.Submit(t.Context(), day(t, "2026-11-26"))
	if err != nil || run.Submitted != contracts*10 {
		t.Fatalf("submit: %+v, %v", run, err)
	}
	read := pages() - before
	t.Logf("%d items submitted touching %d pages of collection_items", run.Submitted, read)
	if read > 10*int64(run.Submitted) {
		t.Errorf("the submission of %d items touched %d pages of collection_items, want at most 10 per item", run.Submitted, read)
	}
}
