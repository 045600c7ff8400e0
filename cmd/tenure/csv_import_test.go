package main

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/contractcheck"
	"github.com/tenurehq/tenure/internal/testing/csvgen"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// A worker killed in the middle of a CSV import leaves whole chunks behind;
// the one started after it finishes the job without losing or repeating a
// row.
func TestCSVImportSurvivesAKilledWorker(t *testing.T) {
	const rows = 60_000
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 10)
	pool := store.Pool
	namespace := testenv.Namespace(t)
	cfg := testenv.Config(t)
	// The API (here) and the worker (a process) share the blob store.
	blobURL := (&url.URL{Scheme: "file", Path: filepath.ToSlash(t.TempDir()), RawQuery: "create_dir=true"}).String()
	cfg.Catalog.Imports.BlobURL = blobURL
	env := append(os.Environ(),
		"TENURE_DATABASE_URL="+databaseURL,
		"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TENURE_TEMPORAL_NAMESPACE="+namespace,
		"TENURE_WEBHOOKS_SECRET_KEY="+cfg.Webhooks.SecretKey,
		"TENURE_CATALOG_IMPORTS_BLOB_URL="+blobURL,
		"TENURE_CATALOG_IMPORTS_CHUNK_ROWS=1000",
		"TENURE_LOG_LEVEL=warn",
	)
	baseURL := testenv.API(t, cfg, store, testenv.ClientFor(t, namespace))
	seller, err := auth.CreateSeller(t.Context(), store, "CSV Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	client, err := sellerclient.Login(t.Context(), baseURL, seller.Credentials.ClientID, seller.Credentials.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	client.HTTP.Transport = contractcheck.Transport(t, client.HTTP.Transport)
	var file bytes.Buffer
	stats, err := csvgen.Generate(&file, rows, 3)
	if err != nil {
		t.Fatal(err)
	}

	worker := startWorker(t, env)
	raw, err := client.ImportCSV(t.Context(), "big.csv", bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.MustParse(raw)
	job := waitForJob(t, store, id, func(processed int64, _ string) bool { return processed >= rows/4 })
	worker.kill(t)
	t.Logf("worker killed after %d of %d rows", job.Processed, rows)
	startWorker(t, env)
	job = waitForJob(t, store, id, func(_ int64, status string) bool { return status == "completed" || status == "failed" })

	var products, failures int64
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM products WHERE seller_id = $1`, seller.Seller.ID).Scan(&products); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(t.Context(), `SELECT count(*) FROM csv_import_errors WHERE import_id = $1`, id).Scan(&failures); err != nil {
		t.Fatal(err)
	}
	valid := int64(stats.Rows - stats.Invalid)
	if job.Status != "completed" || job.Processed != rows || job.Succeeded != valid || job.Failed != int64(stats.Invalid) ||
		products != valid || failures != job.Failed {
		t.Errorf("job %+v with %d products and %d error rows, want %d rows of which %d invalid", job, products, failures, rows, stats.Invalid)
	}
}

// csvJobRow is what the test reads of a job.
type csvJobRow struct {
	Status                       string
	Processed, Succeeded, Failed int64
}

// waitForJob polls a job's row until done says so.
func waitForJob(t *testing.T, store *db.Store, id uuid.UUID, done func(processed int64, status string) bool) csvJobRow {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		row, err := store.GetCSVImport(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		job := csvJobRow{Status: row.Status, Processed: row.Processed, Succeeded: row.Succeeded, Failed: row.Failed}
		if done(job.Processed, job.Status) {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("job still %+v", job)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
