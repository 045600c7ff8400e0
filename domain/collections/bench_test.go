package collections_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/domain/sepa"
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
	signed := day(b, "2026-11-01")
	// Offers, orders, contracts and mandates in bulk; each mandate's IBAN
	// sealed with its own id.
	ids := make([][4]uuid.UUID, contracts)
	for i := range ids {
		for j := range ids[i] {
			ids[i][j] = uuid.Must(uuid.NewV7())
		}
	}
	rows := func(table string, cols []string, row func(i int) []any) {
		_, err := e.store.Pool.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromSlice(contracts, func(i int) ([]any, error) { return row(i), nil }))
		if err != nil {
			b.Fatalf("%s: %v", table, err)
		}
	}
	expires := time.Now().Add(30 * 24 * time.Hour)
	rows("offers", []string{"id", "seller_id", "seller_offer_reference", "status", "sales_channel", "document", "expires_at"}, func(i int) []any {
		return []any{ids[i][0], e.seller, fmt.Sprint("ref-", i), "accepted", "online", "{}", expires}
	})
	rows("orders", []string{"id", "seller_id", "offer_id", "seller_offer_reference", "status", "document", "offer_created_at"}, func(i int) []any {
		return []any{ids[i][1], e.seller, ids[i][0], fmt.Sprint("ref-", i), "confirmed", "{}", expires}
	})
	start := signed.Midnight(time.UTC)
	rows("rental_contracts", []string{"id", "order_id", "seller_id", "offer_id", "line_position", "quantity", "duration_months", "monthly_net", "monthly_gross", "currency", "start_date"}, func(i int) []any {
		return []any{ids[i][2], ids[i][1], e.seller, ids[i][0], 0, 1, 12, int64(10000), int64(11900), "EUR", start}
	})
	rows("mandates", []string{"id", "offer_id", "seller_id", "contractual_entity", "creditor_id", "reference", "scheme", "account_holder", "iban_sealed", "iban_masked", "signed_at"}, func(i int) []any {
		m := ids[i][3]
		scheme := sepa.Core
		if i%2 == 1 {
			scheme = sepa.B2B
		}
		return []any{m, ids[i][0], e.seller, entity, creditorID, string(sepa.MandateReferenceFor(m)), string(scheme), fmt.Sprint("Customer ", i),
			e.ring.Seal([]byte("DE89370400440532013000"), m[:]), "DE89 **** **** **** **** 00", start}
	})
	e.exec(b, `INSERT INTO contract_installments (contract_id, number, period_from, period_to, due_date, currency, net, gross, tax_rate, status)
SELECT c.id, n, d, d, d, 'EUR', 10000, 11900 + n, 1900, 'due'
FROM rental_contracts c, generate_series(1, 10) n, LATERAL (SELECT date '2026-01-01' + (n - 1) * interval '1 month' AS d) due`)
	items := contracts * 10

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
