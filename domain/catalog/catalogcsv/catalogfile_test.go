package catalogcsv_test

import (
	"encoding/csv"
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
)

// TestExampleCatalog reads the example file the documentation points
// sellers to: every row imports except the two that show mistakes.
func TestExampleCatalog(t *testing.T) {
	f, err := os.Open("../../../examples/catalog.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	record, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	h, err := catalogcsv.ParseHeader(record)
	if err != nil {
		t.Fatal(err)
	}
	rejected := map[string]catalogcsv.Problem{}
	var valid []catalog.Product
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		row, prob := h.Parse(record, "EUR")
		if prob != nil {
			rejected[h.Reference(record)] = *prob
			continue
		}
		p, rej := catalog.Validate(row.Product, "EUR")
		if rej != nil {
			t.Errorf("catalog rejects %s: %+v", h.Reference(record), *rej)
		}
		valid = append(valid, p)
	}

	want := map[string]string{
		"BRO-MFCL8900CDW": "price_gross",
		"UBI-UDMPRO":      "price_gross",
	}
	got := map[string]string{}
	for ref, prob := range rejected {
		got[ref] = prob.Column
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rejected %+v, want columns %v", rejected, want)
	}
	if reason := rejected["BRO-MFCL8900CDW"].Reason; !strings.Contains(reason, "must not be below price_net") {
		t.Errorf("gross below net: %q", reason)
	}
	if reason := rejected["UBI-UDMPRO"].Reason; !strings.Contains(reason, "ambiguous") {
		t.Errorf("1,234: %q", reason)
	}
	if len(valid) != 10 {
		t.Errorf("%d valid rows, want 10", len(valid))
	}
	if _, rejections := catalog.ValidateBatch(products(valid), "EUR"); len(rejections) > 0 {
		t.Errorf("the valid rows conflict: %+v", rejections)
	}
	// The comma-decimal price with thousands separators and the derived
	// base rental price of the first row (45.50 × 1299.00 / 1091.60).
	if first := valid[0]; first.ListPrice.Gross != 129900 || first.ListPrice.Net != 109160 ||
		first.BaseRental == nil || first.BaseRental.Net != 4550 || first.BaseRental.Gross != 5414 {
		t.Errorf("first row: list %+v, base rental %+v", first.ListPrice, first.BaseRental)
	}
}

func products(valid []catalog.Product) []catalog.ProductInput {
	out := make([]catalog.ProductInput, len(valid))
	for i, p := range valid {
		out[i] = p.ProductInput
	}
	return out
}
