package csvimport_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/uuid"
	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/internal/testing/csvgen"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// queuedJob records a job whose generated file of rows is uploaded.
func queuedJob(t *testing.T, store *db.Store, bucket *blob.Bucket, rows int) (uuid.UUID, csvgen.Stats) {
	t.Helper()
	seller, err := auth.CreateSeller(t.Context(), store, "Seller "+t.Name(), "EUR")
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	stats, err := csvgen.Generate(&file, rows, 7)
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.Must(uuid.NewV7())
	path := "catalog-imports/" + id.String() + "/upload.csv"
	if err := bucket.WriteAll(t.Context(), path, file.Bytes(), nil); err != nil {
		t.Fatal(err)
	}
	if err := store.CreateCSVImport(t.Context(), dbgen.CreateCSVImportParams{ID: id, SellerID: seller.Seller.ID, Filename: "gen.csv", ObjectPath: path}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.SetCSVImportStatus(t.Context(), dbgen.SetCSVImportStatusParams{ID: id, Status: "queued"}); err != nil {
		t.Fatal(err)
	}
	return id, stats
}

func newProcessor(t *testing.T) (csvimport.Processor, *blob.Bucket) {
	t.Helper()
	bucket, err := fileblob.OpenBucket(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = bucket.Close() })
	store := testenv.Database(t)
	policy := catalog.Policy{Sandbox: true, SandboxLimit: 10000, DefaultPricingCategory: "hardware"}
	return csvimport.Processor{Store: store, Bucket: bucket, Importer: catalog.Importer{Policy: policy}, ChunkRows: 500}, bucket
}

// assertExact checks that every row is counted once and stored once.
func assertExact(t *testing.T, p csvimport.Processor, id uuid.UUID, stats csvgen.Stats) {
	t.Helper()
	job, err := p.Store.GetCSVImport(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	var products, failures int64
	if err := p.Store.Pool.QueryRow(t.Context(), `SELECT count(*) FROM products WHERE seller_id = $1`, job.SellerID).Scan(&products); err != nil {
		t.Fatal(err)
	}
	if err := p.Store.Pool.QueryRow(t.Context(), `SELECT count(*) FROM csv_import_errors WHERE import_id = $1`, id).Scan(&failures); err != nil {
		t.Fatal(err)
	}
	want := int64(stats.Rows - stats.Invalid)
	if job.Processed != int64(stats.Rows) || job.Succeeded != want || job.Failed != int64(stats.Invalid) ||
		products != want || failures != job.Failed || job.Supported != want {
		t.Errorf("job %+v with %d products and %d error rows, want %d rows of which %d invalid", job, products, failures, stats.Rows, stats.Invalid)
	}
}

func TestARetriedRunResumesAfterTheCommittedChunks(t *testing.T) {
	p, bucket := newProcessor(t)
	id, stats := queuedJob(t, p.Store, bucket, 3000)

	// The first run dies after three chunks, as with a killed worker.
	ctx, cancel := context.WithCancel(t.Context())
	beats := 0
	_, err := p.Process(ctx, id, func(csvimport.Job) {
		if beats++; beats == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	mid, _ := p.Store.GetCSVImport(t.Context(), id)
	if mid.Processed != 1500 || mid.Status != "running" {
		t.Fatalf("after the interrupted run: %+v", mid)
	}
	if _, err := p.Process(t.Context(), id, func(csvimport.Job) {}); err != nil {
		t.Fatal(err)
	}
	assertExact(t, p, id, stats)
}

func TestTwoRunsOfOneJobNeverCountARowTwice(t *testing.T) {
	p, bucket := newProcessor(t)
	id, stats := queuedJob(t, p.Store, bucket, 3000)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { _, errs[i] = p.Process(t.Context(), id, func(csvimport.Job) {}) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && !errors.Is(err, csvimport.ErrConcurrentRun) {
			t.Fatal(err)
		}
	}
	assertExact(t, p, id, stats)
}
