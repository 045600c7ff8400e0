package collection_test

import (
	"bytes"
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api/seller"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/collection"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// A worker killed while it writes a run's file loses nothing and doubles
// nothing: the run's items were submitted (with their journals) in one
// committed step, the server retries the file step on a new worker once
// the dead one's heartbeats stop, and the file holds each installment
// once. On the real dev server.
func TestAWorkerKilledDuringARunResumesIt(t *testing.T) {
	store, tc := testenv.Database(t), testenv.Temporal(t)
	f := contracttest.New(t, store, nil)
	ring := collectiontest.Ring(t)
	creditors := collectiontest.Runner(t, store, ring).Creditors
	day := date(t, "2026-03-02")
	// Three contracts with two installments each due by the collection
	// date (1 February and 1 March).
	const count = 3 * 2
	for _, ref := range []string{"ref-a", "ref-b", "ref-c"} {
		collectiontest.Running(t, f, ring, ref, day)
	}

	// The first worker's creditor lookup, which the file step makes
	// first, holds the step until the test ends: its worker is stopped
	// with the step in hand.
	reached, held := make(chan struct{}), make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { close(held) })
	stuck := func(entity string) (collections.Creditor, error) {
		once.Do(func() { close(reached) })
		<-held
		return creditors(entity)
	}
	first := worker(t, f, tc, stuck)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: collection.WorkflowID(day), TaskQueue: collection.TaskQueue},
		collection.Run, collection.Input{RunDate: day})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-reached:
	case <-ctx.Done():
		t.Fatal("the run never reached its file step")
	}
	first.Stop()
	if n := countRows(t, store, "SELECT count(*) FROM collection_items"); n != count {
		t.Fatalf("%d items submitted before the kill, want %d", n, count)
	}
	if n := countRows(t, store, "SELECT count(*) FROM collection_files"); n != 0 {
		t.Fatalf("%d files before the kill", n)
	}

	t.Cleanup(worker(t, f, tc, creditors).Stop)
	var out collection.Result
	if err := run.Get(ctx, &out); err != nil {
		t.Fatal(err)
	}
	if out.Submitted != count || out.Files != 1 || out.Transactions != count {
		t.Errorf("the resumed run: %+v, want %d submitted in one file", out, count)
	}
	checkFiles(t, store, f, count)

	// Run by hand again (tenure collections run --date): nothing new.
	again, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: collection.WorkflowID(day), TaskQueue: collection.TaskQueue},
		collection.Run, collection.Input{RunDate: day})
	if err == nil {
		err = again.Get(ctx, &out)
	}
	if err != nil || out.Submitted != 0 || out.Transactions != count {
		t.Errorf("a repeated run: %+v, %v; want nothing submitted and the same file", out, err)
	}
	checkFiles(t, store, f, count)
	if err := ledger.Check(t.Context(), store.Queries); err != nil {
		t.Errorf("ledger: %v", err)
	}
}

// worker runs Tenure's workers, as `tenure worker` does, with the
// creditors the collection files are written for, until it is stopped.
func worker(t *testing.T, f *contracttest.Fixture, tc client.Client, creditors collections.Creditors) *workflows.Workers {
	t.Helper()
	fixtures, err := services.NewFixtures(f.Config, f.Store, tc)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workflows.NewWorkers(tc, workflows.Deps{
		Config: f.Config, Store: f.Store, Logger: testenv.AppLogger(), Views: seller.NewEventViews(f.Config), Fixtures: fixtures, Creditors: creditors,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.Start(); err != nil {
		t.Fatal(err)
	}
	return ws
}

// countRows counts with a query.
func countRows(t *testing.T, store *db.Store, query string) int {
	t.Helper()
	var n int
	if err := store.Pool.QueryRow(t.Context(), query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkFiles checks that the run wrote one file holding each item once,
// valid against the pain.008 XSD, and that no installment has two items.
func checkFiles(t *testing.T, store *db.Store, f *contracttest.Fixture, count int) {
	t.Helper()
	if n := countRows(t, store, "SELECT count(*) FROM collection_items"); n != count {
		t.Errorf("%d items, want %d", n, count)
	}
	if n := countRows(t, store, "SELECT count(DISTINCT (contract_id, installment_number)) FROM collection_items"); n != count {
		t.Errorf("%d installments collected, want %d", n, count)
	}
	files, err := store.ListCollectionFiles(t.Context(), 10)
	if err != nil || len(files) != 1 || files[0].NbOfTxs != int32(count) {
		t.Fatalf("files: %+v, %v; want one of %d", files, err, count)
	}
	bucket, err := csvimport.OpenBucket(t.Context(), f.Config)
	if err != nil {
		t.Fatal(err)
	}
	defer bucket.Close()
	doc, err := bucket.ReadAll(t.Context(), files[0].BlobKey)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(doc, []byte("<DrctDbtTxInf>")); n != count {
		t.Errorf("the file holds %d collections, want %d", n, count)
	}
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	xmllint.Validate(t, filepath.Join(root, "domain", "sepa", "testdata", "pain.008.001.08.xsd"), doc)
}

// date parses a date of the tests.
func date(t testing.TB, s string) civil.Date {
	t.Helper()
	d, err := civil.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
