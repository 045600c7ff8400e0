package csvimport_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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

// queuedJob records a job of a new seller whose generated file of rows is
// uploaded.
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
	return uploadedJob(t, store, bucket, seller.Seller.ID, file.Bytes()), stats
}

// uploadedJob records a queued job of the seller whose file is uploaded.
func uploadedJob(t *testing.T, store *db.Store, bucket *blob.Bucket, sellerID uuid.UUID, file []byte) uuid.UUID {
	t.Helper()
	id := uuid.Must(uuid.NewV7())
	path := "catalog-imports/" + id.String() + "/upload.csv"
	if err := bucket.WriteAll(t.Context(), path, file, nil); err != nil {
		t.Fatal(err)
	}
	if err := store.CreateCSVImport(t.Context(), dbgen.CreateCSVImportParams{ID: id, SellerID: sellerID, Filename: "gen.csv", ObjectPath: path}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.SetCSVImportStatus(t.Context(), dbgen.SetCSVImportStatusParams{ID: id, Status: "queued"}); err != nil {
		t.Fatal(err)
	}
	return id
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

// The chunk after one in flight counts the support slots that chunk took,
// whether or not it has committed when the count runs: the sandbox grants
// exactly its limit over many chunks.
func TestChunksInFlightGrantTheSandboxLimitExactly(t *testing.T) {
	p, bucket := newProcessor(t)
	p.Importer.Policy.SandboxLimit = 1234
	p.ChunkRows = 100
	id, stats := queuedJob(t, p.Store, bucket, 3000)
	job, err := p.Process(t.Context(), id, func(csvimport.Job) {})
	if err != nil {
		t.Fatal(err)
	}
	var supported int64
	if err := p.Store.Pool.QueryRow(t.Context(), `SELECT count(*) FROM products WHERE seller_id = $1 AND support_status = 'supported'`, job.SellerID).Scan(&supported); err != nil {
		t.Fatal(err)
	}
	stored := int64(stats.Rows - stats.Invalid)
	if supported != 1234 || job.Supported != 1234 || job.Unsupported != stored-1234 || job.Succeeded != stored {
		t.Errorf("%d supported products, job %+v; want 1234 supported of %d stored", supported, job, stored)
	}
}

// Two imports of one seller started at once run one after the other: the
// second finds the first's products and updates every one of them.
func TestTwoImportsOfOneSellerRunOneAfterTheOther(t *testing.T) {
	p, bucket := newProcessor(t)
	first, stats := queuedJob(t, p.Store, bucket, 3000)
	job, err := p.Store.GetCSVImport(t.Context(), first)
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if _, err := csvgen.Generate(&file, 3000, 7); err != nil {
		t.Fatal(err)
	}
	second := uploadedJob(t, p.Store, bucket, job.SellerID, file.Bytes())
	var wg sync.WaitGroup
	for _, id := range []uuid.UUID{first, second} {
		wg.Go(func() {
			if _, err := p.Process(t.Context(), id, func(csvimport.Job) {}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	want := int64(stats.Rows - stats.Invalid)
	for _, id := range []uuid.UUID{first, second} {
		job, err := p.Store.GetCSVImport(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if job.Succeeded != want || job.Failed != int64(stats.Invalid) {
			t.Errorf("job %+v, want %d stored and %d failed", job, want, stats.Invalid)
		}
	}
	var products int64
	if err := p.Store.Pool.QueryRow(t.Context(), `SELECT count(*) FROM products WHERE seller_id = $1`, job.SellerID).Scan(&products); err != nil {
		t.Fatal(err)
	}
	if products != want {
		t.Errorf("%d products, want %d", products, want)
	}
}

// A chunk revised while the one before is still in flight judges its rows
// as it would after that one's commit: a pair the chunk before stored is a
// duplicate, a pair only a row it refused named is not, and the catalog
// product such a pair names is replaced.
func TestAChunkKnowsWhatTheChunkInFlightBeforeItStores(t *testing.T) {
	p, bucket := newProcessor(t)
	p.ChunkRows = 2
	const header = "title,reference,reference_source,is_active,price_gross,price_net,currency\n"
	seller, err := auth.CreateSeller(t.Context(), p.Store, "Seller "+t.Name(), "EUR")
	if err != nil {
		t.Fatal(err)
	}
	sellerID := seller.Seller.ID
	run := func(rows string) csvimport.Job {
		t.Helper()
		job, err := p.Process(t.Context(), uploadedJob(t, p.Store, bucket, sellerID, []byte(header+rows)), func(csvimport.Job) {})
		if err != nil {
			t.Fatal(err)
		}
		return job
	}
	run("Printer,P,sku,true,119.00,100.00,EUR\nScanner,Q,sku,true,238.00,200.00,EUR\n")
	job := run(
		// Chunk 1: a new product, and a row refused as its pairs name
		// two catalog products.
		"Laptop,L,sku,true,1190.00,1000.00,EUR\nBundle,P|Q,sku|sku,true,10.00,10.00,EUR\n" +
			// Chunk 2: the new product's pair again, and the refused
			// row's second pair, which names the scanner.
			"Laptop again,L,sku,true,1190.00,1000.00,EUR\nScanner 2,Q,sku,true,357.00,300.00,EUR\n")
	if job.Succeeded != 2 || job.Failed != 2 {
		t.Errorf("job %+v, want 2 stored and 2 failed", job)
	}
	rows, err := p.Store.Pool.Query(t.Context(), `SELECT line, reason FROM csv_import_errors WHERE import_id = $1 ORDER BY line`, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	type failure struct {
		line   int64
		reason string
	}
	var failures []failure
	for rows.Next() {
		var f failure
		if err := rows.Scan(&f.line, &f.reason); err != nil {
			t.Fatal(err)
		}
		failures = append(failures, f)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []failure{
		{3, "(sku, P) and (sku, Q) belong to two different catalog products"},
		{4, "(sku, L) appears in an earlier row of this file"},
	}
	if !slices.Equal(failures, want) {
		t.Errorf("failures %v, want %v", failures, want)
	}
	var titles []string
	if err := p.Store.Pool.QueryRow(t.Context(), `SELECT array_agg(title ORDER BY title) FROM products WHERE seller_id = $1`, sellerID).Scan(&titles); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Laptop", "Printer", "Scanner 2"}; !slices.Equal(titles, want) {
		t.Errorf("products %v, want %v", titles, want)
	}
}

// A chunk that fails takes the chunk stored beside it down with it: the
// job counts the chunks before, the catalog holds nothing of the two, and
// the retried run stores the rest.
func TestAFailedChunkRollsBackTheChunkInFlightAfterIt(t *testing.T) {
	p, bucket := newProcessor(t)
	p.ChunkRows = 2
	// A fault of the database while the second chunk's pairs are copied.
	if _, err := p.Store.Pool.Exec(t.Context(), `
		CREATE FUNCTION refuse_pair() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF NEW.reference = 'D' THEN RAISE EXCEPTION 'injected fault'; END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER refuse_pair BEFORE INSERT ON product_references FOR EACH ROW EXECUTE FUNCTION refuse_pair()`); err != nil {
		t.Fatal(err)
	}
	seller, err := auth.CreateSeller(t.Context(), p.Store, "Seller "+t.Name(), "EUR")
	if err != nil {
		t.Fatal(err)
	}
	var file strings.Builder
	file.WriteString("title,reference,reference_source,is_active,price_gross,price_net,currency\n")
	for _, ref := range []string{"A", "B", "C", "D", "E", "F"} {
		fmt.Fprintf(&file, "Product %s,%s,sku,true,119.00,100.00,EUR\n", ref, ref)
	}
	id := uploadedJob(t, p.Store, bucket, seller.Seller.ID, []byte(file.String()))
	titles := func() []string {
		var titles []string
		if err := p.Store.Pool.QueryRow(t.Context(), `SELECT coalesce(array_agg(title ORDER BY title), '{}') FROM products WHERE seller_id = $1`, seller.Seller.ID).Scan(&titles); err != nil {
			t.Fatal(err)
		}
		return titles
	}
	if _, err := p.Process(t.Context(), id, func(csvimport.Job) {}); err == nil || !strings.Contains(err.Error(), "injected fault") {
		t.Fatalf("run with a fault: %v", err)
	}
	job, err := p.Store.GetCSVImport(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if job.Processed != 2 || job.Succeeded != 2 {
		t.Errorf("after the fault: %+v, want the first chunk counted", job)
	}
	if got, want := titles(), []string{"Product A", "Product B"}; !slices.Equal(got, want) {
		t.Errorf("after the fault: products %v, want %v", got, want)
	}

	if _, err := p.Store.Pool.Exec(t.Context(), `DROP TRIGGER refuse_pair ON product_references`); err != nil {
		t.Fatal(err)
	}
	if job, err := p.Process(t.Context(), id, func(csvimport.Job) {}); err != nil || job.Processed != 6 || job.Succeeded != 6 {
		t.Fatalf("retried run: %+v, %v", job, err)
	}
	if got, want := titles(), []string{"Product A", "Product B", "Product C", "Product D", "Product E", "Product F"}; !slices.Equal(got, want) {
		t.Errorf("after the retry: products %v, want %v", got, want)
	}
}

// Imports of several sellers at once share a pool as small as the
// configuration allows (two connections): a run's lock is on a connection
// of its own, and a chunk takes a pooled one only once the chunk before
// it holds its own, so no run waits for a connection another run keeps.
func TestImportsOfThreeSellersShareAPoolOfTwoConnections(t *testing.T) {
	p, bucket := newProcessor(t)
	p.ChunkRows = 100
	p.Store = testenv.Connect(t, p.Store.Pool.Config().ConnString(), 2)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	ids, stats := make([]uuid.UUID, 3), make([]csvgen.Stats, 3)
	for i := range ids {
		ids[i], stats[i] = queuedJob(t, p.Store, bucket, 1500)
	}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			if _, err := p.Process(ctx, id, func(csvimport.Job) {}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, id := range ids {
		assertExact(t, p, id, stats[i])
	}
}
