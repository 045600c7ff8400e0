package catalogcsv_test

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
)

func TestParseHeaderNormalisesNames(t *testing.T) {
	h, err := catalogcsv.ParseHeader([]string{"\uFEFF Title", "notes", "REFERENCE ", "Reference_Source", "Is_Active", "price_GROSS", "Price_Net", "Colour"})
	if err != nil {
		t.Fatal(err)
	}
	if h.Width() != 8 {
		t.Errorf("width %d, want 8", h.Width())
	}
	// Unknown columns are skipped whatever their cells hold.
	row, prob := h.Parse([]string{"Laptop", "\xff\x00", "SKU-1", "sku", "yes", "119.00", "100.00", "x"}, "EUR")
	if prob != nil {
		t.Fatalf("problem %+v", prob)
	}
	if row.Product.Title != "Laptop" || row.Product.References[0].Reference != "SKU-1" || !row.Product.IsActive {
		t.Errorf("columns read from the wrong positions: %+v", row.Product)
	}
}

func TestParseHeaderBOMOnlyOnFirstCell(t *testing.T) {
	_, err := catalogcsv.ParseHeader([]string{"title", "\uFEFFreference", "reference_source", "is_active", "price_gross", "price_net"})
	if err == nil || !strings.Contains(err.Error(), "column reference") {
		t.Errorf("a BOM inside the header is part of a name: %v", err)
	}
}

func TestParseHeaderMissingColumns(t *testing.T) {
	_, err := catalogcsv.ParseHeader([]string{"reference", "price_net", "description"})
	want := "the header lacks the required columns title, reference_source, is_active, price_gross"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = catalogcsv.ParseHeader([]string{"title", "reference", "reference_source", "is_active", "price_gross"})
	if want := "the header lacks the required column price_net"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = catalogcsv.ParseHeader(nil)
	if err == nil || !strings.Contains(err.Error(), "title, reference, reference_source, is_active, price_gross, price_net") {
		t.Errorf("an empty header: %v", err)
	}
}

func TestParseHeaderDuplicateColumn(t *testing.T) {
	_, err := catalogcsv.ParseHeader([]string{"title", "reference", "reference_source", "is_active", "price_gross", "price_net", "EAN", " ean"})
	want := "the header names the column ean twice (columns 7 and 8)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	// Unknown columns may repeat.
	if _, err := catalogcsv.ParseHeader([]string{"title", "reference", "reference_source", "is_active", "price_gross", "price_net", "x", "x"}); err != nil {
		t.Errorf("repeated unknown column: %v", err)
	}
}
