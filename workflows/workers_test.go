package workflows_test

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/fixtures"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/productimport"
	"github.com/tenurehq/tenure/workflows/sandbox"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// The sandbox fixture workflow runs on the real worker against a real
// Temporal server and PostgreSQL, and running it twice changes nothing.
func TestWorkerRunsSandboxFixtures(t *testing.T) {
	store := testenv.Database(t)
	tc := testenv.Temporal(t)
	testenv.Worker(t, testenv.Config(t), store, tc)

	seller, err := auth.CreateSeller(t.Context(), store, "Fixture Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	for run := range 2 {
		we, err := tc.ExecuteWorkflow(t.Context(), client.StartWorkflowOptions{
			ID:        sandbox.WorkflowID(seller.Seller.ID),
			TaskQueue: sandbox.TaskQueue,
		}, sandbox.SeedSeller, sandbox.SeedInput{SellerID: seller.Seller.ID})
		if err != nil {
			t.Fatal(err)
		}
		var result sandbox.SeedResult
		if err := we.Get(t.Context(), &result); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if result.ShippingMethods != 2 || result.Products != 5 || result.OffersAndOrders != 12 {
			t.Errorf("run %d: %+v", run, result)
		}
	}
	methods, err := store.ListShippingMethods(t.Context(), dbgen.ListShippingMethodsParams{SellerID: seller.Seller.ID, RowLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	supported := map[string]bool{}
	for _, m := range methods {
		supported[m.SellerShippingMethodReference] = m.Supported
	}
	if len(methods) != 2 || !supported[fixtures.SupportedShippingReference] || supported[fixtures.UnsupportedShippingReference] {
		t.Errorf("fixtures after two runs: %+v", methods)
	}

	pairs := []catalog.Reference{
		{Source: fixtures.SAPSource, Reference: fixtures.PayNowOnlyReference},
		{Source: fixtures.SAPSource, Reference: fixtures.RentReference},
		{Source: fixtures.RentAltSource, Reference: fixtures.RentAltReference},
		{Source: fixtures.SAPSource, Reference: fixtures.UnsupportedReference},
		{Source: fixtures.SKUSource, Reference: fixtures.SupportedSKUReference},
		{Source: fixtures.SKUSource, Reference: fixtures.UnsupportedSKUReference},
	}
	products, err := catalog.FindByReferences(t.Context(), store.Queries, seller.Seller.ID, pairs)
	if err != nil {
		t.Fatal(err)
	}
	wantSupported := []bool{true, true, true, false, true, false}
	for i, pair := range pairs {
		p, ok := products[pair]
		if !ok {
			t.Errorf("no fixture product %+v", pair)
			continue
		}
		if catalog.Sellable(p) != wantSupported[i] || p.Currency != "EUR" || p.Title == "" || p.Ean == "" {
			t.Errorf("fixture %+v: %s %q, sellable %v", pair, p.SupportStatus, p.Title, catalog.Sellable(p))
		}
	}
	if products[pairs[1]].ID != products[pairs[2]].ID {
		t.Error("SAP/1111-1111 and B6/2222-2222 name the same product")
	}
	var count int
	if err := store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM products WHERE seller_id = $1", seller.Seller.ID).Scan(&count); err != nil || count != 5 {
		t.Errorf("two runs leave 5 fixture products, found %d (%v)", count, err)
	}

	// Offers and orders: each fixture once, in its status, made by the
	// workflows (so their events exist too).
	statuses := func(query string) map[string]string {
		rows, err := store.Pool.Query(t.Context(), query, seller.Seller.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]string{}
		for rows.Next() {
			var reference, status string
			if err := rows.Scan(&reference, &status); err != nil {
				t.Fatal(err)
			}
			if _, dup := out[reference]; dup {
				t.Errorf("fixture %s exists twice", reference)
			}
			out[reference] = status
		}
		return out
	}
	offersByRef := statuses("SELECT seller_offer_reference, status FROM offers WHERE seller_id = $1")
	for ref, want := range map[string]string{
		fixtures.ActiveOfferReference: "created", fixtures.CreatedOfferReference: "created", fixtures.VoidedOfferReference: "voided",
		fixtures.ExpiredOfferReference: "expired", fixtures.AcceptedOfferReference: "accepted",
	} {
		if offersByRef[ref] != want {
			t.Errorf("fixture offer %s is %q, want %s", ref, offersByRef[ref], want)
		}
	}
	ordersByRef := statuses("SELECT seller_offer_reference, status FROM orders WHERE seller_id = $1")
	for _, want := range []string{"created", "acknowledged", "confirmed", "partially_fulfilled", "completed", "canceled", "rejected"} {
		if got := ordersByRef[fixtures.OrderReferencePrefix+want]; got != want {
			t.Errorf("fixture order %s is %q", want, got)
		}
	}
	if len(ordersByRef) != 8 || len(offersByRef) != 12 {
		t.Errorf("%d fixture offers and %d orders, want 12 and 8", len(offersByRef), len(ordersByRef))
	}
	var events int
	_ = store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM events WHERE seller_id = $1 AND type = 'order.completed'", seller.Seller.ID).Scan(&events)
	if events != 1 {
		t.Errorf("%d order.completed events", events)
	}
}

// A product import's workflow starts before the request's transaction
// commits the import; the activity retries until the import is visible.
func TestProductImportWaitsForItsImportToBeCommitted(t *testing.T) {
	store := testenv.Database(t)
	tc := testenv.Temporal(t)
	testenv.Worker(t, testenv.Config(t), store, tc)
	seller, err := auth.CreateSeller(t.Context(), store, "Import Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	imports := catalog.Imports{Store: store, Importer: catalog.Importer{Policy: catalog.Policy{Sandbox: true, SandboxLimit: 100}}}
	products := make([]catalog.ProductInput, 10)
	for i := range products {
		products[i] = catalog.ProductInput{
			Title: fmt.Sprintf("P%d", i), IsActive: true,
			Price:      catalog.Money{Currency: "EUR", Net: 10000, Gross: 11900},
			References: []catalog.Reference{{Source: "sku", Reference: fmt.Sprintf("p%d", i)}},
		}
	}
	var run client.WorkflowRun
	accepted, err := imports.Accept(t.Context(), seller.Seller.ID, products, func(ctx context.Context, id uuid.UUID) error {
		run, err = tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: productimport.WorkflowID(id), TaskQueue: productimport.TaskQueue},
			productimport.ImportProducts, productimport.Input{ImportID: id})
		if err == nil {
			time.Sleep(1500 * time.Millisecond) // a slow commit
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var result activities.ProductImportResult
	if err := run.Get(t.Context(), &result); err != nil {
		t.Fatalf("the import fails when its commit is slow: %v", err)
	}
	if result.Status != "completed" || result.Imported != 10 {
		t.Errorf("result %+v", result)
	}
	if got, _ := imports.Get(t.Context(), seller.Seller.ID, accepted.ID); got.Status != catalog.ImportCompleted {
		t.Errorf("stored status %s", got.Status)
	}
}

// A cluster without Tenure's search attributes gets them from the worker,
// and asking again changes nothing. (The package's dev server registers
// them at start, so this test runs a bare one of its own.)
func TestEnsureSearchAttributes(t *testing.T) {
	server, err := testsuite.StartDevServer(t.Context(), testsuite.DevServerOptions{
		ExistingPath:  testenv.TemporalCLI(t),
		LogLevel:      "error",
		ClientOptions: &client.Options{Logger: testenv.Logger()},
		Stdout:        io.Discard,
		Stderr:        io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Stop()
	c := server.Client()
	list := func() map[string]enums.IndexedValueType {
		resp, err := c.OperatorService().ListSearchAttributes(t.Context(), &operatorservice.ListSearchAttributesRequest{Namespace: "default"})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetCustomAttributes()
	}
	if _, ok := list()[searchattr.Status.GetName()]; ok {
		t.Fatal("a bare dev server already knows TenureStatus")
	}
	for range 2 {
		if err := searchattr.Ensure(t.Context(), c, "default"); err != nil {
			t.Fatal(err)
		}
	}
	registered := list()
	for name, kind := range searchattr.All() {
		want, _ := enums.IndexedValueTypeFromString(kind)
		if registered[name] != want {
			t.Errorf("%s is %s, want %s", name, registered[name], kind)
		}
	}
}
