package seller_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"go.temporal.io/api/enums/v1"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func TestImportFewerThanTenProductsCompletesAtOnce(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")

	r := h.ImportProducts(t, token,
		apitest.ProductJSON("sku", "mon-1", "Monitor 27", 30000, apitest.WithField("product_standard_identifiers", []map[string]any{{"identifier_type": "EAN", "id": "4006381333931"}})),
		apitest.ProductJSON("sku", "", "Nameless", 1000),
		apitest.ProductJSON("sku", "kbd-1", "Keyboard", 5000),
	)
	if r.Status != "completed" || r.Summary.Total != 3 || r.Summary.Imported != 2 || r.Summary.Rejected != 1 {
		t.Fatalf("result %+v", r)
	}
	rej := r.Summary.Sample
	// A product without a valid reference is named by its position: the
	// contract requires both parts of a reference to be non-empty.
	if len(rej) != 1 || rej[0].Code != "invalid_reference" || !strings.Contains(rej[0].Description, "seller_product_references[0].reference must not be empty") ||
		rej[0].Reference.Source != "batch_position" || rej[0].Reference.Reference != "1" {
		t.Errorf("rejection %+v", rej)
	}
	if n := productCount(t, h, s.Seller.ID, "products"); n != 2 {
		t.Errorf("%d products stored", n)
	}

	resp := h.Do(t, http.MethodGet, "/v1/catalog/import/"+r.ID, token, nil)
	var again apitest.ImportResult
	resp.Decode(t, &again)
	if resp.Status != http.StatusOK || again.Status != "completed" || again.Summary.Imported != 2 || len(again.Summary.Sample) != 1 {
		t.Errorf("GET the import: %d %+v", resp.Status, again)
	}
}

func TestImportWhoseProductsAreAllRejectedFails(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	r := h.ImportProducts(t, token, apitest.ProductJSON("", "a", "No source", 1000), apitest.ProductJSON("sku", "b", "Free", 0))
	if r.Status != "failed" || r.Summary.Imported != 0 || r.Summary.Rejected != 2 {
		t.Fatalf("result %+v", r)
	}
	if r.Summary.Sample[0].Code != "invalid_reference" || r.Summary.Sample[1].Code != "invalid_price" {
		t.Errorf("sample %+v", r.Summary.Sample)
	}
	if n := productCount(t, h, s.Seller.ID, "products"); n != 0 {
		t.Errorf("%d products stored", n)
	}
}

func TestImportTenOrMoreProductsRunsInTheWorkflow(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	var products []map[string]any
	for i := range 11 {
		products = append(products, apitest.ProductJSON("sku", fmt.Sprintf("p-%02d", i), fmt.Sprintf("Product %d", i), int64(10000+i)))
	}
	products = append(products, apitest.ProductJSON("sku", "p-03", "Duplicate of p-03", 20000))

	r := h.ImportProducts(t, token, products...)
	if r.Status != "created" || r.Summary.Total != 12 || r.ID == "" {
		t.Fatalf("a batch of 12 is accepted for the background: %+v", r)
	}
	desc, err := h.Temporal.DescribeWorkflowExecution(t.Context(), "product-import/"+r.ID, "")
	if err != nil {
		t.Fatalf("the import runs as workflow product-import/%s: %v", r.ID, err)
	}
	if q := desc.WorkflowExecutionInfo.TaskQueue; q != "catalog" {
		t.Errorf("task queue %s", q)
	}

	done := awaitImport(t, h, token, r.ID)
	if done.Status != "completed" || done.Summary.Imported != 11 || done.Summary.Rejected != 1 || done.Summary.Sample[0].Code != "duplicate_reference" {
		t.Errorf("final result %+v", done)
	}
	if n := productCount(t, h, s.Seller.ID, "products"); n != 11 {
		t.Errorf("%d products stored", n)
	}
	run := h.Temporal.GetWorkflow(t.Context(), "product-import/"+r.ID, "")
	if err := run.Get(t.Context(), nil); err != nil {
		t.Errorf("the workflow completes: %v", err)
	}
	desc, _ = h.Temporal.DescribeWorkflowExecution(t.Context(), "product-import/"+r.ID, "")
	if desc.WorkflowExecutionInfo.Status != enums.WORKFLOW_EXECUTION_STATUS_COMPLETED {
		t.Errorf("workflow status %s", desc.WorkflowExecutionInfo.Status)
	}
	var payload *string
	_ = h.Store.Pool.QueryRow(t.Context(), "SELECT payload::text FROM product_imports WHERE id = $1", r.ID).Scan(&payload)
	if payload != nil {
		t.Error("a finished import drops its products")
	}
}

// An import whose workflow fails for good (here the database refuses
// every product, a permanent failure) is marked failed instead of staying
// started, and its workflow fails with the reason.
func TestImportWhoseWorkflowFailsIsMarkedFailed(t *testing.T) {
	h := apitest.New(t)
	h.Worker(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	if _, err := h.Store.Pool.Exec(t.Context(), "ALTER TABLE products ADD CONSTRAINT refuse_products CHECK (false) NOT VALID"); err != nil {
		t.Fatal(err)
	}
	var products []map[string]any
	for i := range 10 {
		products = append(products, apitest.ProductJSON("sku", fmt.Sprintf("f-%02d", i), fmt.Sprintf("Product %d", i), int64(10000+i)))
	}
	r := h.ImportProducts(t, token, products...)
	if r.Status != "created" {
		t.Fatalf("a batch of 10 is accepted for the background: %+v", r)
	}
	if done := awaitImport(t, h, token, r.ID); done.Status != "failed" || done.Summary.Imported != 0 {
		t.Errorf("final result %+v", done)
	}
	err := h.Temporal.GetWorkflow(t.Context(), "product-import/"+r.ID, "").Get(t.Context(), nil)
	if err == nil || !strings.Contains(err.Error(), "failed permanently: a value breaks a rule the stored data must follow") {
		t.Errorf("the workflow ended with %v", err)
	}
}

func TestImportReplacesProductsByAnyOfTheirReferences(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	h.ImportProducts(t, token, apitest.ProductJSON("sku", "nb-1", "Notebook", 100000), apitest.ProductJSON("sku", "other", "Other", 5000))
	id := productID(t, h, s.Seller.ID, "sku", "nb-1")

	// Same product, a second pair and a new title.
	r := h.ImportProducts(t, token, apitest.ProductJSON("sku", "nb-1", "Notebook 14", 110000, withRefs([2]string{"sku", "nb-1"}, [2]string{"ean", "4006381333931"})))
	if r.Status != "completed" || r.Summary.Imported != 1 {
		t.Fatalf("result %+v", r)
	}
	// Named by its second pair only: still the same product.
	h.ImportProducts(t, token, apitest.ProductJSON("ean", "4006381333931", "Notebook 14 (2025)", 120000, withRefs([2]string{"ean", "4006381333931"}, [2]string{"sap", "777"})))
	if got := productID(t, h, s.Seller.ID, "sap", "777"); got != id {
		t.Errorf("a pair identifies the product: %s, want %s", got, id)
	}
	if n := productCount(t, h, s.Seller.ID, "products"); n != 2 {
		t.Errorf("%d products, want 2", n)
	}
	var title string
	var net int64
	_ = h.Store.Pool.QueryRow(t.Context(), "SELECT title, price_net FROM products WHERE id = $1", id).Scan(&title, &net)
	if title != "Notebook 14 (2025)" || net != 120000 {
		t.Errorf("the product is replaced: %q %d", title, net)
	}
	// The replaced product's references are the ones last sent.
	var refs int
	_ = h.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM product_references WHERE product_id = $1", id).Scan(&refs)
	if refs != 2 {
		t.Errorf("%d references, want (ean, sap)", refs)
	}

	// Pairs of two different products: rejected, nothing changes.
	r = h.ImportProducts(t, token, apitest.ProductJSON("sap", "777", "Merged", 1000, withRefs([2]string{"sap", "777"}, [2]string{"sku", "other"})))
	if r.Status != "failed" || len(r.Summary.Sample) != 1 || r.Summary.Sample[0].Code != "reference_conflict" {
		t.Errorf("conflict: %+v", r)
	}
	_ = h.Store.Pool.QueryRow(t.Context(), "SELECT title FROM products WHERE id = $1", id).Scan(&title)
	if title != "Notebook 14 (2025)" {
		t.Errorf("a refused product changes nothing: %q", title)
	}
}

func TestImportRejectsProductsOneByOne(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	r := h.ImportProducts(t, token,
		apitest.ProductJSON("sku", "ok", "Fine", 10000),
		apitest.ProductJSON("sku", "neg", "Negative", -5),
		apitest.ProductJSON("sku", "gross", "Gross below net", 10000, apitest.WithField("price", map[string]any{"currency": "EUR", "net": 10000, "gross": 9000})),
		apitest.ProductJSON("sku", "usd", "Dollars", 10000, apitest.WithField("price", map[string]any{"currency": "USD", "net": 10000, "gross": 11900})),
		apitest.ProductJSON("sku", "ok", "Same pair again", 10000),
		apitest.ProductJSON("sku", "base", "Base rent below net", 10000, apitest.WithField("base_rental_price", map[string]any{"currency": "EUR", "net": 500, "gross": 400})),
		apitest.ProductJSON("sku", "äöü", "Reference without allowed characters", 10000),
	)
	want := []struct{ code, ref, text string }{
		{"invalid_price", "neg", "price.net must be positive"},
		{"invalid_price", "gross", "price.gross (9000) must not be below price.net (10000)"},
		{"currency_mismatch", "usd", "seller's currency EUR"},
		{"duplicate_reference", "ok", "product 0"},
		{"invalid_price", "base", "base_rental_price.gross"},
		{"invalid_reference", "6", "must contain a letter"},
	}
	if r.Status != "completed" || r.Summary.Imported != 1 || r.Summary.Rejected != len(want) {
		t.Fatalf("result %+v", r)
	}
	for i, w := range want {
		got := r.Summary.Sample[i]
		if got.Code != w.code || got.Reference.Reference != w.ref || !strings.Contains(got.Description, w.text) {
			t.Errorf("rejection %d: %+v, want %+v", i, got, w)
		}
	}
}

func TestImportRefusesMalformedBatches(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	good := apitest.ProductJSON("sku", "x", "X", 1000)
	cases := []struct {
		name string
		body any
		want string
	}{
		{"malformed json", `{"products": [`, "not valid JSON"},
		{"empty products", map[string]any{"products": []any{}}, "products"},
		{"no products", map[string]any{}, "products"},
		{"wrong type", map[string]any{"products": []any{apitest.ProductJSON("sku", "x", "X", 1000, apitest.WithField("is_active", "yes"))}}, "is_active"},
		{"price not a number", map[string]any{"products": []any{apitest.ProductJSON("sku", "x", "X", 1000, apitest.WithField("price", map[string]any{"currency": "EUR", "net": "ten", "gross": 1}))}}, "price.net"},
		{"unknown product type", map[string]any{"products": []any{apitest.ProductJSON("sku", "x", "X", 1000, apitest.WithField("seller_product_type", "furniture"))}}, "seller_product_type"},
		{"missing title", map[string]any{"products": []any{func() map[string]any { p := apitest.ProductJSON("sku", "x", "X", 1000); delete(p, "title"); return p }()}}, "title"},
		{"description too long", map[string]any{"products": []any{apitest.ProductJSON("sku", "x", "X", 1000, apitest.WithField("description", strings.Repeat("d", 2001)))}}, "description"},
		{"products not an array", map[string]any{"products": good}, "products"},
		{"title too long", map[string]any{"products": []any{good, apitest.ProductJSON("sku", "long", strings.Repeat("t", 256), 10000)}}, "field products[1].title must be at most 255 characters, got 256"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The published contract refuses this operation's input with 422.
			resp := h.Do(t, http.MethodPost, "/v1/catalog/import", token, tc.body)
			if resp.Status != http.StatusUnprocessableEntity {
				t.Fatalf("got %d %s", resp.Status, resp.Body)
			}
			if e := resp.APIError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("the message does not name %q: %v", tc.want, e["message"])
			}
		})
	}
	if n := productCount(t, h, s.Seller.ID, "products") + productCount(t, h, s.Seller.ID, "product_imports"); n != 0 {
		t.Errorf("bad input wrote %d rows", n)
	}
}

func TestImportRefusesMoreThanAThousandProducts(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	products := make([]map[string]any, 1001)
	for i := range products {
		products[i] = apitest.ProductJSON("sku", fmt.Sprintf("p%d", i), "P", 1000)
	}
	resp := h.Do(t, http.MethodPost, "/v1/catalog/import", token, map[string]any{"products": products})
	if resp.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	if e := resp.APIError(t); e["name"] != "TooManyProducts" || !strings.Contains(e["message"].(string), "at most 1000") {
		t.Errorf("got %v", e)
	}
	if n := productCount(t, h, s.Seller.ID, "products") + productCount(t, h, s.Seller.ID, "product_imports"); n != 0 {
		t.Errorf("a refused batch wrote %d rows", n)
	}
}

func TestSandboxSupportsAtMostTheLimitPerSeller(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.Catalog.SandboxSupportLimit = 5 })
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	h.ImportProducts(t, token, apitest.ProductJSON("sku", "first", "First", 10000))

	// Concurrent imports share the remaining four slots.
	var wg sync.WaitGroup
	for batch := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var products []map[string]any
			for i := range 3 {
				products = append(products, apitest.ProductJSON("sku", fmt.Sprintf("b%d-%d", batch, i), "P", 10000))
			}
			h.ImportProducts(t, token, products...)
		}()
	}
	wg.Wait()
	var supported, unsupported int
	var reason string
	_ = h.Store.Pool.QueryRow(t.Context(), `SELECT count(*) FILTER (WHERE support_status = 'supported'), count(*) FILTER (WHERE support_status = 'unsupported'),
		coalesce(max(support_reason) FILTER (WHERE support_status = 'unsupported'), '') FROM products WHERE seller_id = $1`, s.Seller.ID).Scan(&supported, &unsupported, &reason)
	if supported != 5 || unsupported != 5 || !strings.Contains(reason, "at most 5 products") {
		t.Errorf("%d supported, %d unsupported (%q)", supported, unsupported, reason)
	}
	// Importing a supported product again keeps its slot.
	h.ImportProducts(t, token, apitest.ProductJSON("sku", "first", "First, renamed", 10000))
	var status string
	_ = h.Store.Pool.QueryRow(t.Context(), "SELECT support_status FROM products WHERE title = 'First, renamed'").Scan(&status)
	if status != "supported" {
		t.Errorf("a re-imported supported product is %s", status)
	}
}

func TestProductionCategorisesProductsByRules(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) {
		c.Environment = config.Production
		c.Catalog.Rules.DeniedCategories = []string{"Weapons"}
	})
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	h.ImportProducts(t, token,
		apitest.ProductJSON("sku", "hw", "Laptop", 100000),
		apitest.ProductJSON("sku", "sw", "Licence", 100000, apitest.WithField("seller_product_type", "software")),
		apitest.ProductJSON("sku", "cheap", "Cable", 1000),
		apitest.ProductJSON("sku", "gun", "Air rifle", 100000, apitest.WithField("seller_categories", []map[string]any{{"id": "w", "name": "weapons"}})),
		apitest.ProductJSON("sku", "dear", "Server rack", 3000000),
	)
	want := map[string]string{"hw": "supported", "sw": "to_be_reviewed", "cheap": "unsupported", "gun": "unsupported", "dear": "to_be_reviewed"}
	rows, err := h.Store.Pool.Query(t.Context(), `SELECT r.reference, p.support_status, p.support_reason, p.pricing_category
		FROM products p JOIN product_references r ON r.product_id = p.id WHERE p.seller_id = $1`, s.Seller.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var ref, status, reason, category string
		if err := rows.Scan(&ref, &status, &reason, &category); err != nil {
			t.Fatal(err)
		}
		if status != want[ref] || (status != "supported" && reason == "") {
			t.Errorf("%s: %s (%q), want %s", ref, status, reason, want[ref])
		}
		if ref == "sw" && category != "software" {
			t.Errorf("the product type is the pricing category: %s", category)
		}
	}
}

func TestProductImportsAreIsolatedBetweenSellers(t *testing.T) {
	h := apitest.New(t)
	a, b := h.Seller(t), h.Seller(t)
	tokenA, tokenB := h.Token(t, a, "client"), h.Token(t, b, "client")
	r := h.ImportProducts(t, tokenA, apitest.ProductJSON("sku", "shared", "A's product", 10000))
	if resp := h.Do(t, http.MethodGet, "/v1/catalog/import/"+r.ID, tokenB, nil); resp.Status != http.StatusNotFound {
		t.Errorf("seller B reads A's import: %d %s", resp.Status, resp.Body)
	}
	// The same pair is a different product for B.
	h.ImportProducts(t, tokenB, apitest.ProductJSON("sku", "shared", "B's product", 20000))
	if productID(t, h, a.Seller.ID, "sku", "shared") == productID(t, h, b.Seller.ID, "sku", "shared") {
		t.Error("two sellers share a product")
	}
	var title string
	_ = h.Store.Pool.QueryRow(context.Background(), "SELECT title FROM products WHERE seller_id = $1", a.Seller.ID).Scan(&title)
	if title != "A's product" {
		t.Errorf("B's import changed A's product: %q", title)
	}
}

func TestCatalogOperationsNeedTheirScopes(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	readOnly := h.Token(t, s, "seller-catalog:read")
	resp := h.Do(t, http.MethodPost, "/v1/catalog/import", readOnly, map[string]any{"products": []any{apitest.ProductJSON("sku", "x", "X", 1000)}})
	if resp.Status != http.StatusForbidden {
		t.Errorf("import with a read token: %d %s", resp.Status, resp.Body)
	}
	editOnly := h.Token(t, s, "seller-catalog:edit")
	resp = h.Do(t, http.MethodPost, "/v1/catalog/list-recommended-rental-prices", editOnly, map[string]any{"pricing_requests": []any{}})
	if resp.Status != http.StatusForbidden {
		t.Errorf("pricing with an edit token: %d %s", resp.Status, resp.Body)
	}
	if n := productCount(t, h, s.Seller.ID, "products"); n != 0 {
		t.Errorf("a refused import wrote %d products", n)
	}
}
