package catalogcsv_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
)

// columns are all the contract's columns, in its order.
var columns = []string{
	"title", "reference", "reference_source", "is_active", "price_gross", "price_net",
	"currency", "manufacturer", "subtitle", "ean", "mpn",
	"seller_category_id", "seller_category_name", "seller_category_parent_id",
	"description", "base_rental_price_gross", "base_rental_price_net",
	"image_url", "shop_product_description_url", "seller_product_type", "extra_details",
}

func ptr[T any](v T) *T { return &v }

func fullHeader(t *testing.T) catalogcsv.Header {
	t.Helper()
	h, err := catalogcsv.ParseHeader(columns)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// minimal is a valid row with only the required cells.
func minimal() map[string]string {
	return map[string]string{
		"title": "Lenovo ThinkPad T14", "reference": "SKU-1", "reference_source": "sku",
		"is_active": "true", "price_gross": "1.190,00", "price_net": "1000",
	}
}

// full is a valid row with every cell.
func full() map[string]string {
	m := minimal()
	for k, v := range map[string]string{
		"currency": "eur", "manufacturer": "Lenovo", "subtitle": "Gen 5, 16 GB",
		"ean": "4063924123457", "mpn": "21MC0016GE",
		"seller_category_id": "laptops", "seller_category_name": "Laptops", "seller_category_parent_id": "it",
		"description": "A 14-inch business laptop.", "base_rental_price_gross": "", "base_rental_price_net": "25.00",
		"image_url": "https://cdn.shop.example/t14.jpg", "shop_product_description_url": "HTTP://shop.example/p/t14",
		"seller_product_type": "Hardware", "extra_details": "memory=16 GB| colour = black ",
	} {
		m[k] = v
	}
	return m
}

// record lays cells out in the contract's column order.
func record(cells map[string]string) []string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = cells[c]
	}
	return out
}

// with is cells with some of them changed.
func with(cells map[string]string, changes ...string) map[string]string {
	for i := 0; i < len(changes); i += 2 {
		cells[changes[i]] = changes[i+1]
	}
	return cells
}

func TestParseFullRow(t *testing.T) {
	row, prob := fullHeader(t).Parse(record(full()), "CHF")
	if prob != nil {
		t.Fatalf("problem %+v", prob)
	}
	want := catalog.ProductInput{
		Title:           "Lenovo ThinkPad T14",
		Subtitle:        "Gen 5, 16 GB",
		Description:     "A 14-inch business laptop.",
		Manufacturer:    "Lenovo",
		Type:            "hardware",
		IsActive:        true,
		Price:           catalog.Money{Currency: "EUR", Net: 100000, Gross: 119000},
		BaseRentalPrice: &catalog.Money{Currency: "EUR", Net: 2500, Gross: 2975},
		References:      []catalog.Reference{{Source: "sku", Reference: "SKU-1"}},
		Identifiers:     []catalog.Identifier{{Type: "EAN", ID: "4063924123457"}, {Type: "MPN", ID: "21MC0016GE"}},
		Categories:      []catalog.Category{{ID: "laptops", Name: "Laptops", ParentID: "it"}},
		Details:         []catalog.Detail{{Property: "memory", Value: "16 GB"}, {Property: "colour", Value: "black"}},
		ImageURL:        "https://cdn.shop.example/t14.jpg",
		ShopURL:         "HTTP://shop.example/p/t14",
	}
	if !reflect.DeepEqual(row.Product, want) {
		t.Errorf("product\n got %+v\nwant %+v", row.Product, want)
	}
	all := catalogcsv.FieldCurrency | catalogcsv.FieldManufacturer | catalogcsv.FieldSubtitle | catalogcsv.FieldEAN |
		catalogcsv.FieldMPN | catalogcsv.FieldCategory | catalogcsv.FieldDescription | catalogcsv.FieldBaseRental |
		catalogcsv.FieldImageURL | catalogcsv.FieldShopURL | catalogcsv.FieldType | catalogcsv.FieldDetails
	if row.Present != all {
		t.Errorf("present %b, want %b", row.Present, all)
	}
	p, rej := catalog.Validate(row.Product, "EUR")
	if rej != nil {
		t.Fatalf("catalog rejects the row: %+v", rej)
	}
	if p.EAN != "4063924123457" || p.MPN != "21MC0016GE" || p.ListPrice.TaxRate != 1900 || p.BaseRental.TaxRate != 1900 {
		t.Errorf("catalog reads EAN %q, MPN %q, prices %+v %+v", p.EAN, p.MPN, p.ListPrice, *p.BaseRental)
	}
}

func TestParseMinimalRow(t *testing.T) {
	row, prob := fullHeader(t).Parse(record(minimal()), "EUR")
	if prob != nil {
		t.Fatalf("problem %+v", prob)
	}
	if row.Present != 0 {
		t.Errorf("present %b, want none", row.Present)
	}
	want := catalog.ProductInput{
		Title:      "Lenovo ThinkPad T14",
		IsActive:   true,
		Price:      catalog.Money{Currency: "EUR", Net: 100000, Gross: 119000},
		References: []catalog.Reference{{Source: "sku", Reference: "SKU-1"}},
	}
	if !reflect.DeepEqual(row.Product, want) {
		t.Errorf("product\n got %+v\nwant %+v", row.Product, want)
	}
}

func TestParseReads(t *testing.T) {
	cases := []struct {
		name  string
		cells map[string]string
		check func(catalogcsv.Row) bool
	}{
		{"trimmed cells", with(minimal(), "title", "  Monitor \t", "manufacturer", " Dell "), func(r catalogcsv.Row) bool {
			return r.Product.Title == "Monitor" && r.Product.Manufacturer == "Dell"
		}},
		{"several references in order", with(minimal(), "reference", " SKU-1 | 4063924123457|X1 ", "reference_source", "sku|ean | mpn"), func(r catalogcsv.Row) bool {
			return reflect.DeepEqual(r.Product.References, []catalog.Reference{{Source: "sku", Reference: "SKU-1"}, {Source: "ean", Reference: "4063924123457"}, {Source: "mpn", Reference: "X1"}})
		}},
		{"inactive", with(minimal(), "is_active", "N"), func(r catalogcsv.Row) bool { return !r.Product.IsActive }},
		{"gross equal to net", with(minimal(), "price_gross", "10", "price_net", "10.00"), func(r catalogcsv.Row) bool {
			return r.Product.Price.Net == 1000 && r.Product.Price.Gross == 1000
		}},
		{"blank currency is the seller's", with(minimal(), "currency", "  "), func(r catalogcsv.Row) bool {
			return r.Product.Price.Currency == "EUR" && r.Present&catalogcsv.FieldCurrency == 0
		}},
		{"currency upper-cased", with(minimal(), "currency", "chf"), func(r catalogcsv.Row) bool {
			return r.Product.Price.Currency == "CHF" && r.Present&catalogcsv.FieldCurrency != 0
		}},
		{"both base rental amounts", with(minimal(), "base_rental_price_gross", "30", "base_rental_price_net", "25"), func(r catalogcsv.Row) bool {
			return *r.Product.BaseRentalPrice == catalog.Money{Currency: "EUR", Net: 2500, Gross: 3000}
		}},
		{"base rental gross derives net", with(minimal(), "base_rental_price_gross", "29,75"), func(r catalogcsv.Row) bool {
			return *r.Product.BaseRentalPrice == catalog.Money{Currency: "EUR", Net: 2500, Gross: 2975}
		}},
		{"derived amounts round half up", with(minimal(), "price_gross", "0.03", "price_net", "0.02", "base_rental_price_net", "0.01"), func(r catalogcsv.Row) bool {
			return *r.Product.BaseRentalPrice == catalog.Money{Currency: "EUR", Net: 1, Gross: 2}
		}},
		{"a derived zero becomes one cent", with(minimal(), "price_gross", "0.03", "price_net", "0.01", "base_rental_price_gross", "0.01"), func(r catalogcsv.Row) bool {
			return *r.Product.BaseRentalPrice == catalog.Money{Currency: "EUR", Net: 1, Gross: 1}
		}},
		{"derived at the maximum", with(minimal(), "price_gross", "1000000000", "price_net", "0.01", "base_rental_price_net", "0.01"), func(r catalogcsv.Row) bool {
			return *r.Product.BaseRentalPrice == catalog.Money{Currency: "EUR", Net: 1, Gross: catalog.MaxAmount}
		}},
		{"description of 2000 characters", with(minimal(), "description", strings.Repeat("é", 2000)), func(r catalogcsv.Row) bool {
			return len([]rune(r.Product.Description)) == 2000
		}},
		{"title of 255 characters", with(minimal(), "title", strings.Repeat("ß", 255)), func(r catalogcsv.Row) bool { return true }},
		{"type lower-cased", with(minimal(), "seller_product_type", "HARDWARE_BUILT_TO_ORDER"), func(r catalogcsv.Row) bool {
			return r.Product.Type == "hardware_built_to_order"
		}},
		{"ean alone", with(minimal(), "ean", "4063924123457"), func(r catalogcsv.Row) bool {
			return reflect.DeepEqual(r.Product.Identifiers, []catalog.Identifier{{Type: "EAN", ID: "4063924123457"}}) && r.Present == catalogcsv.FieldEAN
		}},
		{"category from its name", with(minimal(), "seller_category_name", "Monitors"), func(r catalogcsv.Row) bool {
			return reflect.DeepEqual(r.Product.Categories, []catalog.Category{{Name: "Monitors"}})
		}},
		{"category from its id", with(minimal(), "seller_category_id", "42", "seller_category_parent_id", "4"), func(r catalogcsv.Row) bool {
			return reflect.DeepEqual(r.Product.Categories, []catalog.Category{{ID: "42", ParentID: "4"}})
		}},
		{"detail values may hold = and be empty", with(minimal(), "extra_details", "formula=a=b|note="), func(r catalogcsv.Row) bool {
			return reflect.DeepEqual(r.Product.Details, []catalog.Detail{{Property: "formula", Value: "a=b"}, {Property: "note", Value: ""}})
		}},
		{"100 details", with(minimal(), "extra_details", strings.Repeat("k=v|", 99)+"k=v"), func(r catalogcsv.Row) bool {
			return len(r.Product.Details) == 100
		}},
		{"100 references", with(minimal(), "reference", strings.Repeat("r|", 99)+"r", "reference_source", strings.Repeat("s|", 99)+"s"), func(r catalogcsv.Row) bool {
			return len(r.Product.References) == 100
		}},
		{"http url with port and query", with(minimal(), "image_url", "http://img.example:8080/a.png?w=200"), func(r catalogcsv.Row) bool {
			return r.Product.ImageURL == "http://img.example:8080/a.png?w=200"
		}},
	}
	h := fullHeader(t)
	for _, c := range cases {
		row, prob := h.Parse(record(c.cells), "EUR")
		if prob != nil {
			t.Errorf("%s: problem %+v", c.name, prob)
			continue
		}
		if !c.check(row) {
			t.Errorf("%s: got %+v (present %b)", c.name, row.Product, row.Present)
		}
	}
}

func TestParseProblems(t *testing.T) {
	cases := []struct {
		name         string
		cells        map[string]string
		column, want string
	}{
		{"empty title", with(minimal(), "title", " "), "title", "must not be empty"},
		{"empty reference", with(minimal(), "reference", ""), "reference", "must not be empty"},
		{"empty reference source", with(minimal(), "reference_source", ""), "reference_source", "must not be empty"},
		{"empty is_active", with(minimal(), "is_active", ""), "is_active", "must not be empty"},
		{"empty price", with(minimal(), "price_net", ""), "price_net", "must not be empty"},
		{"first problem wins", with(minimal(), "title", "", "price_gross", "x"), "title", "must not be empty"},
		{"long title", with(minimal(), "title", strings.Repeat("t", 256)), "title", "at most 255 characters, got 256"},
		{"long manufacturer", with(minimal(), "manufacturer", strings.Repeat("ü", 256)), "manufacturer", "at most 255"},
		{"long description", with(minimal(), "description", strings.Repeat("é", 2001)), "description", "at most 2000 characters, got 2001"},
		{"long category name", with(minimal(), "seller_category_name", strings.Repeat("c", 256)), "seller_category_name", "at most 255"},
		{"more references than sources", with(minimal(), "reference", "A|B"), "reference", "has 2 values but reference_source has 1"},
		{"more sources than references", with(minimal(), "reference_source", "sku|ean"), "reference", "has 1 values but reference_source has 2"},
		{"empty reference part", with(minimal(), "reference", "A| ", "reference_source", "sku|ean"), "reference", "value 2 is empty"},
		{"empty source part", with(minimal(), "reference", "A|B", "reference_source", "|ean"), "reference_source", "value 1 is empty"},
		{"long reference", with(minimal(), "reference", strings.Repeat("r", 256)), "reference", "at most 255"},
		{"too many references", with(minimal(), "reference", strings.Repeat("r|", 100)+"r", "reference_source", strings.Repeat("s|", 100)+"s"), "reference", "has 101 values, at most 100"},
		{"bad boolean", with(minimal(), "is_active", "maybe"), "is_active", `"maybe" is not a yes or no`},
		{"ambiguous gross", with(minimal(), "price_gross", "1,234"), "price_gross", `"1,234" is ambiguous`},
		{"ambiguous net", with(minimal(), "price_net", "1.234"), "price_net", "ambiguous"},
		{"zero price", with(minimal(), "price_net", "0,00"), "price_net", "must be greater than 0"},
		{"negative price", with(minimal(), "price_net", "-1"), "price_net", "sign"},
		{"gross below net", with(minimal(), "price_gross", "99.99", "price_net", "100"), "price_gross", "must not be below price_net (100.00), got 99.99"},
		{"price too large", with(minimal(), "price_gross", "1000000000.01"), "price_gross", "too large"},
		{"long currency", with(minimal(), "currency", "EURO"), "currency", "three-letter currency code"},
		{"currency with a digit", with(minimal(), "currency", "E1R"), "currency", "three-letter currency code"},
		{"currency with a non-ASCII letter", with(minimal(), "currency", "EÜR"), "currency", "three-letter currency code"},
		{"category parent alone", with(minimal(), "seller_category_parent_id", "it"), "seller_category_parent_id", "needs seller_category_id or seller_category_name"},
		{"zero base rental", with(minimal(), "base_rental_price_net", "0"), "base_rental_price_net", "greater than 0"},
		{"ambiguous base rental", with(minimal(), "base_rental_price_gross", "2,500"), "base_rental_price_gross", "ambiguous"},
		{"base rental gross below net", with(minimal(), "base_rental_price_gross", "10", "base_rental_price_net", "12"), "base_rental_price_gross", "must not be below base_rental_price_net (12.00), got 10.00"},
		{"derived base rental too large", with(minimal(), "price_gross", "1000000000", "price_net", "0.01", "base_rental_price_net", "0.02"), "base_rental_price_net", "too large"},
		{"url without scheme", with(minimal(), "image_url", "www.shop.example/a.png"), "image_url", "full http or https address"},
		{"ftp url", with(minimal(), "image_url", "ftp://shop.example/a.png"), "image_url", "full http or https address"},
		{"url without host", with(minimal(), "shop_product_description_url", "https:///p/1"), "shop_product_description_url", "full http or https address"},
		{"url of a port only", with(minimal(), "shop_product_description_url", "https://:443/p"), "shop_product_description_url", "full http or https address"},
		{"opaque url", with(minimal(), "shop_product_description_url", "mailto:sales@shop.example"), "shop_product_description_url", "full http or https address"},
		{"url with a space", with(minimal(), "image_url", "https://shop.example/a b.png"), "image_url", "spaces"},
		{"long url", with(minimal(), "image_url", "https://shop.example/"+strings.Repeat("a", 2000)), "image_url", "at most 2000 characters"},
		{"unknown type", with(minimal(), "seller_product_type", "gadget"), "seller_product_type", "must be one of hardware, software, service, hardware_built_to_order"},
		{"detail without =", with(minimal(), "extra_details", "memory=16 GB|black"), "extra_details", `pair 2 ("black") is not key=value`},
		{"detail without key", with(minimal(), "extra_details", " =16 GB"), "extra_details", "pair 1"},
		{"empty detail pair", with(minimal(), "extra_details", "a=1|"), "extra_details", "pair 2"},
		{"long detail value", with(minimal(), "extra_details", "a="+strings.Repeat("v", 256)), "extra_details", "at most 255"},
		{"too many details", with(minimal(), "extra_details", strings.Repeat("k=v|", 100)+"k=v"), "extra_details", "has 101 values, at most 100"},
		{"invalid UTF-8", with(minimal(), "manufacturer", "Lenovo \xff"), "manufacturer", "not valid UTF-8"},
		{"NUL", with(minimal(), "subtitle", "a\x00b"), "subtitle", "NUL"},
	}
	h := fullHeader(t)
	for _, c := range cases {
		row, prob := h.Parse(record(c.cells), "EUR")
		if prob == nil {
			t.Errorf("%s: accepted %+v", c.name, row.Product)
			continue
		}
		if prob.Column != c.column || !strings.Contains(prob.Reason, c.want) {
			t.Errorf("%s: got %+v, want column %q and a reason saying %q", c.name, *prob, c.column, c.want)
		}
	}
}

func TestParseFieldCount(t *testing.T) {
	h := fullHeader(t)
	for _, n := range []int{0, 1, len(columns) - 1, len(columns) + 1} {
		_, prob := h.Parse(make([]string, n), "EUR")
		want := catalogcsv.Problem{Reason: fmt.Sprintf("the row has %d fields, the header has %d", n, len(columns))}
		if prob == nil || *prob != want {
			t.Errorf("%d fields: got %+v, want %+v", n, prob, want)
		}
	}
}

func TestReference(t *testing.T) {
	h, err := catalogcsv.ParseHeader([]string{"title", "is_active", "price_gross", "price_net", "reference_source", "reference"})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Reference([]string{"a", "b", "c", "d", "e", " SKU-1|X "}); got != " SKU-1|X " {
		t.Errorf("reference %q", got)
	}
	if got := h.Reference([]string{"a", "b"}); got != "" {
		t.Errorf("short record: %q", got)
	}
}

// existing is a catalog product with every optional value set, as the
// Seller API could have stored it.
func existing() catalog.ProductInput {
	return catalog.ProductInput{
		Title:           "Old title",
		Subtitle:        "Old subtitle",
		Description:     "Old description",
		Manufacturer:    "Old manufacturer",
		Type:            "software",
		IsActive:        false,
		Price:           catalog.Money{Currency: "EUR", Net: 100, Gross: 107, TaxRate: ptr(int64(700))},
		BaseRentalPrice: &catalog.Money{Currency: "EUR", Net: 10, Gross: 11},
		References:      []catalog.Reference{{Source: "sku", Reference: "SKU-1"}, {Source: "ean", Reference: "111"}},
		Identifiers:     []catalog.Identifier{{Type: "GTIN", ID: "222"}, {Type: "ean", ID: "111"}, {Type: "ISBN", ID: "333"}, {Type: " mpn ", ID: "OLD-MPN"}},
		Categories:      []catalog.Category{{ID: "a"}, {ID: "b"}},
		Details:         []catalog.Detail{{Property: "warranty", Value: "1 year"}},
		ImageURL:        "https://old.example/i.png",
		ShopURL:         "https://old.example/p",
	}
}

func TestOverKeepsExistingOptionalValues(t *testing.T) {
	row, prob := fullHeader(t).Parse(record(minimal()), "EUR")
	if prob != nil {
		t.Fatal(prob)
	}
	got := row.Over(existing())
	want := existing()
	want.Title, want.IsActive, want.References = "Lenovo ThinkPad T14", true, []catalog.Reference{{Source: "sku", Reference: "SKU-1"}}
	want.Price = catalog.Money{Currency: "EUR", Net: 100000, Gross: 119000}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("over\n got %+v\nwant %+v", got, want)
	}
}

func TestOverReplacesPresentValues(t *testing.T) {
	row, prob := fullHeader(t).Parse(record(full()), "EUR")
	if prob != nil {
		t.Fatal(prob)
	}
	got := row.Over(existing())
	want := row.Product
	// The row's EAN and MPN come first; the other types stay.
	want.Identifiers = []catalog.Identifier{{Type: "EAN", ID: "4063924123457"}, {Type: "MPN", ID: "21MC0016GE"}, {Type: "GTIN", ID: "222"}, {Type: "ISBN", ID: "333"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("over\n got %+v\nwant %+v", got, want)
	}
}

func TestOverIdentifiers(t *testing.T) {
	row, prob := fullHeader(t).Parse(record(with(minimal(), "ean", "4063924123457")), "EUR")
	if prob != nil {
		t.Fatal(prob)
	}
	old := existing()
	got := row.Over(old)
	want := []catalog.Identifier{{Type: "EAN", ID: "4063924123457"}, {Type: "GTIN", ID: "222"}, {Type: "ISBN", ID: "333"}, {Type: " mpn ", ID: "OLD-MPN"}}
	if !reflect.DeepEqual(got.Identifiers, want) {
		t.Errorf("identifiers %+v, want %+v", got.Identifiers, want)
	}
	p, rej := catalog.Validate(got, "EUR")
	if rej != nil {
		t.Fatal(rej)
	}
	if p.EAN != "4063924123457" || p.MPN != "OLD-MPN" {
		t.Errorf("catalog picks EAN %q and MPN %q", p.EAN, p.MPN)
	}
	if !reflect.DeepEqual(old, existing()) {
		t.Errorf("over changed the existing product: %+v", old)
	}
}
