package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

func imports(t *testing.T) (catalog.Imports, *db.Store, uuid.UUID) {
	t.Helper()
	store := testenv.Database(t)
	seller, err := auth.CreateSeller(t.Context(), store, "Catalog Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	policy := catalog.Policy{Sandbox: true, SandboxLimit: 10000, DefaultPricingCategory: "hardware"}
	return catalog.Imports{Store: store, Importer: catalog.Importer{Policy: policy}}, store, seller.Seller.ID
}

// batch is n valid products, with a rejected one every tenth.
func batch(n int) []catalog.ProductInput {
	products := make([]catalog.ProductInput, n)
	for i := range products {
		products[i] = catalog.ProductInput{
			Title: fmt.Sprintf("Product %d", i), IsActive: true, Type: "hardware",
			Price:      catalog.Money{Currency: "EUR", Net: int64(10000 + i), Gross: int64(11900 + i)},
			References: []catalog.Reference{{Source: "sku", Reference: fmt.Sprintf("p-%04d", i)}},
		}
		if i%10 == 9 {
			products[i].Price.Net = 0
		}
	}
	return products
}

// catalogState is every product of a seller, by reference, without ids
// and times.
func catalogState(t *testing.T, store *db.Store, sellerID uuid.UUID) map[string]string {
	t.Helper()
	rows, err := store.Pool.Query(t.Context(), `SELECT r.reference, p.title, p.price_net, p.support_status, p.search_text
		FROM products p JOIN product_references r ON r.product_id = p.id WHERE p.seller_id = $1`, sellerID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	state := map[string]string{}
	for rows.Next() {
		var ref, title, status, text string
		var net int64
		if err := rows.Scan(&ref, &title, &net, &status, &text); err != nil {
			t.Fatal(err)
		}
		state[ref] = fmt.Sprint(title, net, status, text)
	}
	return state
}

func accept(t *testing.T, x catalog.Imports, sellerID uuid.UUID, products []catalog.ProductInput) uuid.UUID {
	t.Helper()
	r, err := x.Accept(t.Context(), sellerID, products, func(context.Context, uuid.UUID) error { return nil })
	if err != nil || r.Status != catalog.ImportCreated {
		t.Fatalf("accept: %+v %v", r, err)
	}
	return r.ID
}

func TestRunImportsInChunksAndIsIdempotent(t *testing.T) {
	x, store, sellerID := imports(t)
	products := batch(250)
	id := accept(t, x, sellerID, products)

	var beats []catalog.Progress
	first, err := x.Run(t.Context(), id, nil, func(p catalog.Progress) { beats = append(beats, p) })
	if err != nil {
		t.Fatal(err)
	}
	if first.Status != catalog.ImportCompleted || first.Summary.Total != 250 || first.Summary.Imported != 225 || first.Summary.Rejected != 25 {
		t.Fatalf("summary %+v", first.Summary)
	}
	if len(first.Summary.Sample) != catalog.SampleSize || first.Summary.Sample[0].Index != 9 || first.Summary.Sample[19].Index != 199 {
		t.Errorf("the sample holds the first 20 rejections: %+v", first.Summary.Sample)
	}
	if len(beats) != 3 || beats[2].Chunks != 3 || beats[2].Imported != 225 {
		t.Errorf("one heartbeat per chunk of %d: %+v", catalog.ChunkSize, beats)
	}
	stored, err := x.Get(t.Context(), sellerID, id)
	if err != nil || !reflect.DeepEqual(stored, first) {
		t.Errorf("stored result %+v (%v), want %+v", stored, err, first)
	}
	state := catalogState(t, store, sellerID)

	// Running a finished import again returns its result and changes nothing.
	again, err := x.Run(t.Context(), id, nil, func(catalog.Progress) { t.Error("a finished import ran again") })
	if err != nil || !reflect.DeepEqual(again, first) {
		t.Errorf("rerun: %+v (%v)", again, err)
	}

	// The same batch imported again (as a retry from scratch would) yields
	// the same catalog and the same summary.
	second, err := x.Run(t.Context(), accept(t, x, sellerID, products), nil, func(catalog.Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	second.ID = first.ID
	if !reflect.DeepEqual(second, first) {
		t.Errorf("second run %+v, want %+v", second.Summary, first.Summary)
	}
	if after := catalogState(t, store, sellerID); !reflect.DeepEqual(after, state) || len(after) != 225 {
		t.Errorf("the catalog changed on the second run (%d products)", len(after))
	}
}

func TestRunResumesAfterItsLastHeartbeat(t *testing.T) {
	x, store, sellerID := imports(t)
	products := batch(250)
	id := accept(t, x, sellerID, products)

	// A first attempt stores one chunk, then its worker goes away.
	ctx, cancel := context.WithCancel(t.Context())
	var last catalog.Progress
	_, err := x.Run(ctx, id, nil, func(p catalog.Progress) { last = p; cancel() })
	if err == nil || last.Chunks != 1 {
		t.Fatalf("the first attempt should stop after a chunk: %v %+v", err, last)
	}
	resumed, err := x.Run(t.Context(), id, &last, func(catalog.Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Summary.Imported != 225 || resumed.Summary.Rejected != 25 || len(catalogState(t, store, sellerID)) != 225 {
		t.Errorf("resumed import: %+v", resumed.Summary)
	}
}

func TestRunRefusesAnUnknownImport(t *testing.T) {
	x, _, _ := imports(t)
	if _, err := x.Run(t.Context(), uuid.New(), nil, func(catalog.Progress) {}); !errors.Is(err, catalog.ErrImportNotFound) {
		t.Errorf("got %v", err)
	}
}

func TestAcceptRollsBackWhenTheWorkflowDoesNotStart(t *testing.T) {
	x, store, sellerID := imports(t)
	_, err := x.Accept(t.Context(), sellerID, batch(12), func(context.Context, uuid.UUID) error { return errors.New("temporal unavailable") })
	if err == nil {
		t.Fatal("accepted without a workflow")
	}
	var n int
	_ = store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM product_imports").Scan(&n)
	if n != 0 {
		t.Errorf("%d imports recorded without a workflow", n)
	}
}
