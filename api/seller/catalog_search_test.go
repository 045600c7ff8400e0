package seller_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// searchCatalog is a small catalog for searches: active products plus an
// inactive one.
func searchCatalog(t *testing.T, h *apitest.Harness, token string) {
	t.Helper()
	h.ImportProducts(t, token,
		apitest.ProductJSON("sku", "MBP-14", "MacBook Pro 14", 209916,
			apitest.WithField("manufacturer", "Apple"), apitest.WithField("subtitle", "M3 Pro, 18 GB"),
			apitest.WithField("product_standard_identifiers", []map[string]any{{"identifier_type": "EAN", "id": "0195253123450"}, {"identifier_type": "MPN", "id": "MRX33D/A"}}),
			apitest.WithField("base_rental_price", map[string]any{"currency": "EUR", "net": 200000, "gross": 238000})),
		apitest.ProductJSON("sku", "DELL-U2724D", "UltraSharp 27 Monitor", 54538, apitest.WithField("manufacturer", "Dell"), apitest.WithField("seller_product_type", "hardware_built_to_order")),
		apitest.ProductJSON("sap", "50%_off", "Cable 100% copper", 1500, apitest.WithField("manufacturer", "Hama")),
		apitest.ProductJSON("sku", "LIC-365", "Office licence", 9900, apitest.WithField("manufacturer", "Microsoft"), apitest.WithField("seller_product_type", "software")),
		apitest.ProductJSON("sku", "OLD-1", "MacBook Air (discontinued)", 90000, apitest.WithField("manufacturer", "Apple"), apitest.WithField("is_active", false)),
	)
}

func search(t *testing.T, h *apitest.Harness, token, target string) []catalogProduct {
	t.Helper()
	resp := h.Do(t, http.MethodGet, target, token, nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", target, resp.Status, resp.Body)
	}
	var rows []catalogProduct
	resp.Decode(t, &rows)
	return rows
}

func TestSearchProductsByTerm(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	searchCatalog(t, h, token)

	cases := map[string][]string{
		"macbook":       {"MacBook Pro 14"},
		"APPLE":         {"MacBook Pro 14"},
		"m3 pro":        {"MacBook Pro 14"},
		"u2724":         {"UltraSharp 27 Monitor"},
		"0195253123450": {"MacBook Pro 14"},
		"mrx33d":        {"MacBook Pro 14"},
		"100%":          {"Cable 100% copper"},
		"50%_":          {"Cable 100% copper"},
		"_":             {"Cable 100% copper"},
		"pro 14\nm3":    nil,
		"":              {"MacBook Pro 14", "UltraSharp 27 Monitor", "Cable 100% copper", "Office licence"},
		"discontinued":  nil,
	}
	for term, want := range cases {
		got := titles(search(t, h, token, "/v1/catalog/products?term="+url.QueryEscape(term)))
		if !reflect.DeepEqual(got, want) && !(len(got) == 0 && want == nil) {
			t.Errorf("term %q: got %q, want %q", term, got, want)
		}
	}

	rows := search(t, h, token, "/v1/catalog/products?term=0195")
	p := rows[0]
	if p.ProductID == "" || p.Reference != "MBP-14" || p.Manufacturer != "Apple" || p.Subtitle != "M3 Pro, 18 GB" || p.EAN != "0195253123450" || p.MPN != "MRX33D/A" {
		t.Errorf("product %+v", p)
	}
	if p.ListPrice != (apitest.Money{Currency: "EUR", Net: 209916, Gross: 249800}) || p.BaseRentalPrice == nil || p.BaseRentalPrice.Net != 200000 {
		t.Errorf("prices %+v %+v", p.ListPrice, p.BaseRentalPrice)
	}
	if p.Origin != "manual" || p.PrettyID != "MBP-14" || p.PricingCategory != "hardware" || p.Archived == nil || *p.Archived {
		t.Errorf("origin %q, pretty id %q, category %q, archived %v", p.Origin, p.PrettyID, p.PricingCategory, p.Archived)
	}
	if !p.Terms.CanPayNow || !p.Terms.CanRent || p.Terms.Rent == nil || p.Terms.Rent.Duration != 36 {
		t.Errorf("terms %+v", p.Terms)
	}
	cable := search(t, h, token, "/v1/catalog/products?term=copper")[0]
	if !cable.Terms.CanPayNow || cable.Terms.CanRent || cable.Terms.Rent != nil {
		t.Errorf("a product below the rent minimum is pay-now only: %+v", cable.Terms)
	}
}

func TestSearchProductsByReferenceNamesTheMatchingReference(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	h.ImportProducts(t, token, apitest.ProductJSON("SAP", "1111-1111", "MacBook", 200000, withRefs([2]string{"SAP", "1111-1111"}, [2]string{"B6", "2222-2222"})))
	rows := search(t, h, token, "/v1/catalog/products?term=2222")
	if len(rows) != 1 || rows[0].Reference != "2222-2222" || len(rows[0].References) != 2 || rows[0].References[0] != (apitest.Pair{Source: "SAP", Reference: "1111-1111"}) {
		t.Errorf("got %+v", rows)
	}
}

func TestSearchIsIsolatedBetweenSellers(t *testing.T) {
	h := apitest.New(t)
	a, b := h.Seller(t), h.Seller(t)
	searchCatalog(t, h, h.Token(t, a, "client"))
	tokenB := h.Token(t, b, "client")
	if rows := search(t, h, tokenB, "/v1/catalog/products?term=macbook"); len(rows) != 0 {
		t.Errorf("seller B finds A's products: %+v", rows)
	}
	resp := h.Do(t, http.MethodGet, "/v1/catalog/products_paginated", tokenB, nil)
	var page productPage
	resp.Decode(t, &page)
	if page.TotalRows != 0 || len(page.Rows) != 0 {
		t.Errorf("seller B's pages show A's products: %+v", page)
	}
	resp = h.Do(t, http.MethodPost, "/v1/catalog/products_paginated", tokenB, map[string]any{
		"filtering_options": []any{map[string]any{"property": "manufacturer", "operation": "=", "value": "Apple"}},
	})
	resp.Decode(t, &page)
	if page.TotalRows != 0 {
		t.Errorf("seller B's filters find A's products: %+v", page)
	}
}

func TestSearchProductsPaginated(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	var products []map[string]any
	for i := range 25 {
		products = append(products, apitest.ProductJSON("sku", fmt.Sprintf("mon-%02d", i), fmt.Sprintf("Monitor %02d", i), 20000))
	}
	for i := range 5 {
		products = append(products, apitest.ProductJSON("sku", fmt.Sprintf("kbd-%d", i), fmt.Sprintf("Keyboard %d", i), 5000))
	}
	for i := 0; i < len(products); i += 9 {
		h.ImportProducts(t, token, products[i:min(i+9, len(products))]...)
	}
	get := func(query string) productPage {
		t.Helper()
		resp := h.Do(t, http.MethodGet, "/v1/catalog/products_paginated?"+query, token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", query, resp.Status, resp.Body)
		}
		var p productPage
		resp.Decode(t, &p)
		return p
	}
	p := get("term=monitor")
	if p.Limit != 20 || p.Page != 0 || p.TotalRows != 25 || p.TotalPages != 2 || len(p.Rows) != 20 || p.Rows[0].Title != "Monitor 00" {
		t.Errorf("default page: limit %d page %d rows %d/%d pages %d", p.Limit, p.Page, len(p.Rows), p.TotalRows, p.TotalPages)
	}
	p = get("term=monitor&limit=10&page=2")
	if p.TotalRows != 25 || p.TotalPages != 3 || len(p.Rows) != 5 || p.Rows[0].Title != "Monitor 20" {
		t.Errorf("last page: %+v", titles(p.Rows))
	}
	p = get("term=monitor&limit=10&page=3")
	if p.TotalRows != 25 || len(p.Rows) != 0 {
		t.Errorf("past the end: %d rows of %d", len(p.Rows), p.TotalRows)
	}
	p = get("limit=100")
	if p.TotalRows != 30 || len(p.Rows) != 30 || p.TotalPages != 1 {
		t.Errorf("all: %d of %d", len(p.Rows), p.TotalRows)
	}
}

func TestSearchRefusesBadParameters(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	searchCatalog(t, h, token)
	cases := []struct{ query, want string }{
		{"limit=0", "limit must be at least 1, got 0"},
		{"limit=-5", "limit"},
		{"page=-1", "page must be between 0 and 1000000, got -1"},
		{"page=first", "page"},
		{"limit=", "limit"},
		{"term=" + strings.Repeat("t", 256), "term must be at most 255"},
	}
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		for _, tc := range cases {
			var body any
			if method == http.MethodPost {
				body = map[string]any{}
			}
			// The published contract refuses this operation's input with 422.
			resp := h.Do(t, method, "/v1/catalog/products_paginated?"+tc.query, token, body)
			if resp.Status != http.StatusUnprocessableEntity {
				t.Errorf("%s %s: got %d %s", method, tc.query, resp.Status, resp.Body)
				continue
			}
			if e := resp.APIError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("%s %s: the message does not name %q: %v", method, tc.query, tc.want, e["message"])
			}
		}
	}
}

func TestSearchCapsThePageAt100(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	searchCatalog(t, h, token)
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		var body any
		if method == http.MethodPost {
			body = map[string]any{}
		}
		resp := h.Do(t, method, "/v1/catalog/products_paginated?limit=1000", token, body)
		var page struct {
			Limit     int64            `json:"limit"`
			Rows      []map[string]any `json:"rows"`
			TotalRows int64            `json:"totalRows"`
		}
		resp.Decode(t, &page)
		if resp.Status != http.StatusOK || page.Limit != 100 || int64(len(page.Rows)) != page.TotalRows {
			t.Errorf("%s limit=1000: %d limit %d, %d rows of %d", method, resp.Status, page.Limit, len(page.Rows), page.TotalRows)
		}
	}
}

// filter runs a filtered search and returns the titles found.
func filter(t *testing.T, h *apitest.Harness, token string, body map[string]any) []string {
	t.Helper()
	resp := h.Do(t, http.MethodPost, "/v1/catalog/products_paginated?limit=100", token, body)
	if resp.Status != http.StatusOK {
		t.Fatalf("%v: %d %s", body, resp.Status, resp.Body)
	}
	var p productPage
	resp.Decode(t, &p)
	if int(p.TotalRows) != len(p.Rows) {
		t.Errorf("%v: totalRows %d for %d rows", body, p.TotalRows, len(p.Rows))
	}
	got := titles(p.Rows)
	slices.Sort(got)
	return got
}

func condition(property, operation string, value any) map[string]any {
	return map[string]any{"property": property, "operation": operation, "value": fmt.Sprint(value)}
}

func TestFilterProductsWithEveryOperation(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	searchCatalog(t, h, token)
	const (
		mac     = "MacBook Pro 14"
		monitor = "UltraSharp 27 Monitor"
		cable   = "Cable 100% copper"
		licence = "Office licence"
	)
	cases := []struct {
		name       string
		logic      string
		conditions []map[string]any
		want       []string
	}{
		{"<", "", []map[string]any{condition("price_net", "<", 9900)}, []string{cable}},
		{">", "", []map[string]any{condition("price_net", ">", 54538)}, []string{mac}},
		{"= number", "", []map[string]any{condition("price_net", "=", 54538)}, []string{monitor}},
		{"!= number", "", []map[string]any{condition("price_net", "!=", 54538)}, []string{cable, mac, licence}},
		{"<=", "", []map[string]any{condition("price_gross", "<=", 11781)}, []string{cable, licence}},
		{">=", "", []map[string]any{condition("price_net", ">=", 54538)}, []string{mac, monitor}},
		{"= text, case-insensitive", "", []map[string]any{condition("manufacturer", "=", "dell")}, []string{monitor}},
		{"!= text", "", []map[string]any{condition("manufacturer", "!=", "Apple")}, []string{cable, monitor, licence}},
		{"contains", "", []map[string]any{condition("title", "contains", "MONITOR")}, []string{monitor}},
		{"contains a wildcard literally", "", []map[string]any{condition("title", "contains", "100%")}, []string{cable}},
		{"does not contain", "", []map[string]any{condition("title", "does not contain", "o")}, nil},
		{"does not contain (some)", "", []map[string]any{condition("title", "does not contain", "book")}, []string{cable, licence, monitor}},
		{"reference =", "", []map[string]any{condition("reference", "=", "dell-u2724d")}, []string{monitor}},
		{"reference does not contain", "", []map[string]any{condition("reference", "does not contain", "-")}, []string{cable}},
		{"source !=", "", []map[string]any{condition("source", "!=", "sku")}, []string{cable}},
		{"boolean", "", []map[string]any{condition("archived", "=", false)}, []string{cable, mac, licence, monitor}},
		{"boolean !=", "", []map[string]any{condition("is_supported", "!=", "TRUE")}, nil},
		{"nullable number", "", []map[string]any{condition("base_rental_price_net", "<", 300000)}, []string{mac}},
		{"product type", "", []map[string]any{condition("seller_product_type", "=", "software")}, []string{licence}},
		{"AND", "AND", []map[string]any{condition("manufacturer", "=", "Apple"), condition("price_net", "<", 1000)}, nil},
		{"AND by default", "", []map[string]any{condition("title", "contains", "o"), condition("price_net", ">", 50000)}, []string{mac, monitor}},
		{"OR", "OR", []map[string]any{condition("manufacturer", "=", "Apple"), condition("price_net", "<", 2000)}, []string{cable, mac}},
		{"no conditions", "OR", []map[string]any{}, []string{cable, mac, licence, monitor}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"filtering_options": tc.conditions}
			if tc.logic != "" {
				body["filtering_logic"] = tc.logic
			}
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if got := filter(t, h, token, body); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
	// The term narrows the filtered search.
	resp := h.Do(t, http.MethodPost, "/v1/catalog/products_paginated?term=apple", token, map[string]any{
		"filtering_logic": "OR", "filtering_options": []any{condition("price_net", ">", 0)},
	})
	var p productPage
	resp.Decode(t, &p)
	if p.TotalRows != 1 || p.Rows[0].Title != mac {
		t.Errorf("term and filters: %+v", titles(p.Rows))
	}
}

func TestFilterRefusesWhatItCannotUse(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	searchCatalog(t, h, token)
	cases := []struct {
		name string
		body any
		want string
	}{
		{"unknown property", map[string]any{"filtering_options": []any{condition("colour", "=", "red")}}, `filtering_options[0].property: unknown property "colour"`},
		{"injection as property", map[string]any{"filtering_options": []any{condition("title = title OR 1=1 --", "=", "x")}}, "unknown property"},
		{"operation not for text", map[string]any{"filtering_options": []any{condition("title", ">=", "m")}}, `">=" does not apply to the text property title`},
		{"operation not for numbers", map[string]any{"filtering_options": []any{condition("price_net", "contains", "1")}}, `"contains" does not apply to the integer property price_net`},
		{"number of the wrong type", map[string]any{"filtering_options": []any{condition("price_net", ">", "cheap")}}, `filtering_options[0].value: price_net takes an integer`},
		{"boolean of the wrong type", map[string]any{"filtering_options": []any{condition("archived", "=", "no")}}, `archived takes true or false, got "no"`},
		{"unknown operation", map[string]any{"filtering_options": []any{condition("title", "like", "x")}}, "filtering_options[0].operation"},
		{"unknown logic", map[string]any{"filtering_logic": "XOR"}, "filtering_logic"},
		{"value not a string", map[string]any{"filtering_options": []any{map[string]any{"property": "price_net", "operation": "<", "value": 5}}}, "filtering_options[0].value"},
		{"missing value", map[string]any{"filtering_options": []any{map[string]any{"property": "price_net", "operation": "<"}}}, "value"},
		{"too many conditions", map[string]any{"filtering_options": slices.Repeat([]any{condition("title", "contains", "a")}, 21)}, "at most 20"},
		{"malformed json", `{"filtering_options": [}`, "not valid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := h.Do(t, http.MethodPost, "/v1/catalog/products_paginated", token, tc.body)
			if resp.Status != http.StatusUnprocessableEntity {
				t.Fatalf("got %d %s", resp.Status, resp.Body)
			}
			if e := resp.APIError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("the message does not name %q: %v", tc.want, e["message"])
			}
		})
	}
	if n := productCount(t, h, s.Seller.ID, "products"); n != 5 {
		t.Errorf("the catalog changed: %d products", n)
	}
}
