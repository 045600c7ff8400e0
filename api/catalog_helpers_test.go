package api_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
)

// productJSON is a product to import as a merchant sends it: active
// hardware priced net in EUR at 19 %, tuned by the options.
func productJSON(source, reference, title string, net int64, tune ...func(map[string]any)) map[string]any {
	p := map[string]any{
		"title":                     title,
		"manufacturer":              "Acme",
		"is_active":                 true,
		"seller_product_type":       "hardware",
		"seller_product_references": []map[string]any{{"source": source, "reference": reference}},
		"price":                     price(net),
	}
	for _, f := range tune {
		f(p)
	}
	return p
}

// price is a net amount in EUR with 19 % tax.
func price(net int64) map[string]any {
	return map[string]any{"currency": "EUR", "net": net, "gross": (net*119 + 50) / 100, "tax_rate": 1900}
}

func withField(key string, value any) func(map[string]any) {
	return func(p map[string]any) { p[key] = value }
}

func withRefs(pairs ...[2]string) func(map[string]any) {
	return func(p map[string]any) {
		refs := make([]map[string]any, len(pairs))
		for i, r := range pairs {
			refs[i] = map[string]any{"source": r[0], "reference": r[1]}
		}
		p["seller_product_references"] = refs
	}
}

func ref(source, reference string) map[string]any {
	return map[string]any{"source": source, "reference": reference}
}

type pair struct {
	Source    string `json:"source"`
	Reference string `json:"reference"`
}

type importResult struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Summary struct {
		Total    int `json:"total_products"`
		Imported int `json:"total_products_imported"`
		Rejected int `json:"total_products_rejected"`
		Sample   []struct {
			Code        string `json:"error_code"`
			Description string `json:"error_description"`
			Reference   pair   `json:"seller_product_reference"`
		} `json:"sample_products_rejected"`
	} `json:"summary"`
}

// importProducts sends a batch and expects it to be accepted.
func (h *harness) importProducts(t *testing.T, token string, products ...map[string]any) importResult {
	t.Helper()
	resp := h.do(t, http.MethodPost, "/v1/catalog/import", token, map[string]any{"products": products})
	if resp.status != http.StatusOK {
		t.Fatalf("import: %d %s", resp.status, resp.body)
	}
	var r importResult
	resp.decode(t, &r)
	return r
}

// awaitImport polls an import until it has finished.
func (h *harness) awaitImport(t *testing.T, token, id string) importResult {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp := h.do(t, http.MethodGet, "/v1/catalog/import/"+id, token, nil)
		if resp.status != http.StatusOK {
			t.Fatalf("get import: %d %s", resp.status, resp.body)
		}
		var r importResult
		resp.decode(t, &r)
		if r.Status == "completed" || r.Status == "failed" {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("import %s still %s", id, r.Status)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// productCount counts the rows a seller has in a catalog table.
func (h *harness) productCount(t *testing.T, sellerID uuid.UUID, table string) int {
	t.Helper()
	var n int
	if err := h.store.Pool.QueryRow(t.Context(), fmt.Sprintf("SELECT count(*) FROM %s WHERE seller_id = $1", table), sellerID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// productID is the id of the seller's product with the pair.
func (h *harness) productID(t *testing.T, sellerID uuid.UUID, source, reference string) string {
	t.Helper()
	var id uuid.UUID
	err := h.store.Pool.QueryRow(t.Context(),
		"SELECT product_id FROM product_references WHERE seller_id = $1 AND source = $2 AND reference = $3",
		sellerID, source, reference).Scan(&id)
	if err != nil {
		t.Fatalf("no product (%s, %s): %v", source, reference, err)
	}
	return id.String()
}

type money struct {
	Currency string `json:"currency"`
	Net      int64  `json:"net"`
	Gross    int64  `json:"gross"`
	TaxRate  int64  `json:"tax_rate"`
}

type contractTerms struct {
	CanPayNow bool `json:"can_pay_now"`
	CanRent   bool `json:"can_rent"`
	Rent      *struct {
		Duration int `json:"duration"`
	} `json:"rent"`
}

type catalogProduct struct {
	ProductID       string        `json:"product_id"`
	Title           string        `json:"title"`
	Subtitle        string        `json:"subtitle"`
	Manufacturer    string        `json:"manufacturer"`
	Reference       string        `json:"reference"`
	References      []pair        `json:"seller_product_references"`
	ListPrice       money         `json:"list_price"`
	BaseRentalPrice *money        `json:"base_rental_price"`
	Archived        *bool         `json:"archived"`
	Origin          string        `json:"origin"`
	PrettyID        string        `json:"pretty_id"`
	PricingCategory string        `json:"pricing_category"`
	EAN             string        `json:"ean"`
	MPN             string        `json:"mpn"`
	Terms           contractTerms `json:"available_contract_terms"`
}

type productPage struct {
	Limit      int64            `json:"limit"`
	Page       int64            `json:"page"`
	TotalPages int64            `json:"totalPages"`
	TotalRows  int64            `json:"totalRows"`
	Rows       []catalogProduct `json:"rows"`
}

func titles(rows []catalogProduct) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.Title
	}
	return out
}
