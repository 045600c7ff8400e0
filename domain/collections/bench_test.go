package collections_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// BenchmarkCollectionRun (make bench-collections) runs the collection of
// 100,000 due installments (10,000 contracts of 10, half CORE, half B2B)
// and of 10,000, and compares writing the pain.008 files with copying as
// many rows into PostgreSQL (CopyFrom, the protocol of psql's \copy) in
// the same run. The goal: the files of 100,000 in at most 60 s, with a
// peak heap that does not grow with the count.
func BenchmarkCollectionRun(b *testing.B) {
	for range b.N {
		small := benchRun(b, 1_000)
		large := benchRun(b, 10_000)
		fmt.Printf("%-38s %10s %12s %12s %14s\n", "collection run", "items", "submit s", "files s", "peak heap MB")
		for _, r := range []benchResult{small, large} {
			fmt.Printf("%-38s %10d %12.1f %12.1f %14.1f\n", "", r.items, r.submit.Seconds(), r.files.Seconds(), mb(r.peakHeap))
		}
		fmt.Printf("%-38s %10d %12s %12.1f\n", "CopyFrom of as many rows", large.items, "", large.copy.Seconds())
		fmt.Printf("files / CopyFrom: %.2fx; files of %d in %.1f s (goal ≤ 60 s); peak heap %.1f MB at %d, %.1f MB at %d\n",
			large.files.Seconds()/large.copy.Seconds(), large.items, large.files.Seconds(), mb(large.peakHeap), large.items, mb(small.peakHeap), small.items)
		b.ReportMetric(large.files.Seconds(), "files-s")
		b.ReportMetric(large.copy.Seconds(), "copy-s")
		b.ReportMetric(mb(large.peakHeap), "peak-heap-MB")
	}
}

// benchResult is one size's figures.
type benchResult struct {
	items               int
	submit, files, copy time.Duration
	peakHeap            uint64
}

// benchRun collects the installments of a number of contracts of ten.
func benchRun(b *testing.B, contracts int) benchResult {
	e := newEnv(b)
	ctx := b.Context()
	ids := e.owedInBulk(b, contracts)
	items := contracts * 10
	// A deployment's autovacuum analyses tables that grew this much; the
	// run's statements are planned with the statistics it would have.
	testenv.StandInForAutovacuum(b, e.store)

	r := benchResult{items: items}
	began := time.Now()
	run, err := e.runner.Submit(ctx, day(b, "2026-11-26"))
	if err != nil || run.Submitted != items {
		b.Fatalf("submit: %+v, %v", run, err)
	}
	r.submit = time.Since(began)

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > peak.Load() {
					peak.Store(m.HeapAlloc)
				}
			}
		}
	}()
	began = time.Now()
	files, err := e.runner.WriteFiles(ctx, run.ID)
	r.files = time.Since(began)
	close(done)
	if err != nil || len(files) != 2 || int(files[0].NbOfTxs+files[1].NbOfTxs) != items {
		b.Fatalf("files: %d, %v", len(files), err)
	}
	if p := peak.Load(); p > base.HeapAlloc {
		r.peakHeap = p - base.HeapAlloc
	}

	// The baseline: as many rows of the items' width through CopyFrom.
	e.exec(b, `CREATE TEMP TABLE copied (LIKE collection_items)`)
	began = time.Now()
	n, err := e.store.Pool.CopyFrom(ctx, pgx.Identifier{"copied"},
		[]string{"id", "run_id", "contract_id", "installment_number", "mandate_id", "contractual_entity", "creditor_id", "scheme", "attempt", "end_to_end_id", "amount", "sequence_type", "status", "reason", "created_at"},
		pgx.CopyFromSlice(items, func(i int) ([]any, error) {
			c := ids[i/10]
			return []any{uuid.Must(uuid.NewV7()), run.ID, c[2], int32(i%10 + 1), c[3], entity, creditorID, "CORE", int32(1), fmt.Sprint("E2E-", i), int64(11900), "RCUR", "submitted", "", began}, nil
		}))
	r.copy = time.Since(began)
	if err != nil || int(n) != items {
		b.Fatalf("copy: %d, %v", n, err)
	}
	return r
}

// mb is bytes in megabytes.
func mb(n uint64) float64 { return float64(n) / (1 << 20) }
