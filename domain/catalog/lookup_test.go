package catalog_test

import (
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// FindItemsByReferences reads in one query what FindByReferences and
// ItemsByIDs read in three: for every pair named, the product and all its
// references in the seller's order, whichever of them named it; pairs no
// product owns, or another seller's, are absent.
func TestFindItemsByReferencesReadsWhatThreeQueriesRead(t *testing.T) {
	store := testenv.Database(t)
	cfg := testenv.Config(t)
	seller, err := auth.CreateSeller(t.Context(), store, "Lookup Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	other, err := auth.CreateSeller(t.Context(), store, "Other Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	laptop := catalog.ProductInput{
		Title: "Laptop", Type: "hardware", IsActive: true,
		Price: catalog.Money{Currency: "EUR", Net: 100000, Gross: 119000},
		References: []catalog.Reference{
			{Source: "sku", Reference: "L-1"}, {Source: "ean", Reference: "4000000000017"}, {Source: "SAP", Reference: "0042"},
		},
	}
	dock := catalog.ProductInput{
		Title: "Dock", Type: "hardware", IsActive: true,
		Price:      catalog.Money{Currency: "EUR", Net: 20000, Gross: 23800},
		References: []catalog.Reference{{Source: "sku", Reference: "D-1"}},
	}
	testenv.Catalog(t, store, cfg, seller.Seller.ID, "EUR", laptop, dock)
	testenv.Catalog(t, store, cfg, other.Seller.ID, "EUR", catalog.ProductInput{
		Title: "Foreign", Type: "hardware", IsActive: true,
		Price:      catalog.Money{Currency: "EUR", Net: 1000, Gross: 1190},
		References: []catalog.Reference{{Source: "sku", Reference: "F-1"}},
	})

	named := []catalog.Reference{
		{Source: "SAP", Reference: "0042"}, {Source: "sku", Reference: "D-1"}, {Source: "sku", Reference: "L-1"},
		{Source: "sku", Reference: "missing"}, {Source: "sku", Reference: "F-1"},
	}
	got, err := catalog.FindItemsByReferences(t.Context(), store.Queries, seller.Seller.ID, named)
	if err != nil {
		t.Fatal(err)
	}
	products, err := catalog.FindByReferences(t.Context(), store.Queries, seller.Seller.ID, named)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || len(products) != 3 {
		t.Fatalf("found %d items and %d products for the seller's three pairs, want 3 each: %v", len(got), len(products), got)
	}
	for ref, p := range products {
		items, err := catalog.ItemsByIDs(t.Context(), store.Queries, seller.Seller.ID, []uuid.UUID{p.ID})
		if err != nil || len(items) != 1 {
			t.Fatalf("ItemsByIDs(%s): %v, %v", p.ID, items, err)
		}
		if !reflect.DeepEqual(got[ref], items[0]) {
			t.Errorf("%v: one query read %+v, three read %+v", ref, got[ref], items[0])
		}
	}
	if want := laptop.References; !reflect.DeepEqual(got[catalog.Reference{Source: "SAP", Reference: "0042"}].References, want) {
		t.Errorf("the laptop's references are %v, want %v in the seller's order", got[catalog.Reference{Source: "SAP", Reference: "0042"}].References, want)
	}
}
