package apitest

import (
	"net/http"
	"testing"
)

// ProductJSON is a product to import as a merchant sends it: active
// hardware priced net in EUR at 19 %, tuned by the options.
func ProductJSON(source, reference, title string, net int64, tune ...func(map[string]any)) map[string]any {
	p := map[string]any{
		"title":                     title,
		"manufacturer":              "Acme",
		"is_active":                 true,
		"seller_product_type":       "hardware",
		"seller_product_references": []map[string]any{{"source": source, "reference": reference}},
		"price":                     Price(net),
	}
	for _, f := range tune {
		f(p)
	}
	return p
}

// Price is a net amount in EUR with 19 % tax.
func Price(net int64) map[string]any {
	return map[string]any{"currency": "EUR", "net": net, "gross": (net*119 + 50) / 100, "tax_rate": 1900}
}

// WithField sets a field of a payload.
func WithField(key string, value any) func(map[string]any) {
	return func(p map[string]any) { p[key] = value }
}

// Ref is a seller product reference as the API takes it.
func Ref(source, reference string) map[string]any {
	return map[string]any{"source": source, "reference": reference}
}

// Pair is a seller product reference as the API answers it.
type Pair struct {
	Source    string `json:"source"`
	Reference string `json:"reference"`
}

// ImportResult is the result of a product batch import.
type ImportResult struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Summary struct {
		Total    int `json:"total_products"`
		Imported int `json:"total_products_imported"`
		Rejected int `json:"total_products_rejected"`
		Sample   []struct {
			Code        string `json:"error_code"`
			Description string `json:"error_description"`
			Reference   Pair   `json:"seller_product_reference"`
		} `json:"sample_products_rejected"`
	} `json:"summary"`
}

// ImportProducts sends a batch and expects it to be accepted.
func (h *Harness) ImportProducts(t *testing.T, token string, products ...map[string]any) ImportResult {
	t.Helper()
	resp := h.Do(t, http.MethodPost, "/v1/catalog/import", token, map[string]any{"products": products})
	if resp.Status != http.StatusOK {
		t.Fatalf("import: %d %s", resp.Status, resp.Body)
	}
	var r ImportResult
	resp.Decode(t, &r)
	return r
}

// Money is an amount as the API answers it.
type Money struct {
	Currency string `json:"currency"`
	Net      int64  `json:"net"`
	Gross    int64  `json:"gross"`
	TaxRate  int64  `json:"tax_rate"`
}

// CreateCSVImport creates a job and returns its id and upload link.
func (h *Harness) CreateCSVImport(t *testing.T, token, filename string) (string, string) {
	t.Helper()
	resp := h.Do(t, http.MethodPost, "/v1/catalog/imports", token, map[string]any{"filename": filename})
	if resp.Status != http.StatusCreated {
		t.Fatalf("create import: %d %s", resp.Status, resp.Body)
	}
	var created struct {
		ID        string `json:"id"`
		UploadURL string `json:"upload_url"`
	}
	resp.Decode(t, &created)
	return created.ID, created.UploadURL
}
