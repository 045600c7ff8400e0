package seller_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func withRefs(pairs ...[2]string) func(map[string]any) {
	return func(p map[string]any) {
		refs := make([]map[string]any, len(pairs))
		for i, r := range pairs {
			refs[i] = map[string]any{"source": r[0], "reference": r[1]}
		}
		p["seller_product_references"] = refs
	}
}

// awaitImport polls an import until it has finished.
func awaitImport(t *testing.T, h *apitest.Harness, token, id string) apitest.ImportResult {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp := h.Do(t, http.MethodGet, "/v1/catalog/import/"+id, token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("get import: %d %s", resp.Status, resp.Body)
		}
		var r apitest.ImportResult
		resp.Decode(t, &r)
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
func productCount(t *testing.T, h *apitest.Harness, sellerID uuid.UUID, table string) int {
	t.Helper()
	var n int
	if err := h.Store.Pool.QueryRow(t.Context(), fmt.Sprintf("SELECT count(*) FROM %s WHERE seller_id = $1", table), sellerID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// productID is the id of the seller's product with the pair.
func productID(t *testing.T, h *apitest.Harness, sellerID uuid.UUID, source, reference string) string {
	t.Helper()
	var id uuid.UUID
	err := h.Store.Pool.QueryRow(t.Context(),
		"SELECT product_id FROM product_references WHERE seller_id = $1 AND source = $2 AND reference = $3",
		sellerID, source, reference).Scan(&id)
	if err != nil {
		t.Fatalf("no product (%s, %s): %v", source, reference, err)
	}
	return id.String()
}

type contractTerms struct {
	CanPayNow bool `json:"can_pay_now"`
	CanRent   bool `json:"can_rent"`
	Rent      *struct {
		Duration int `json:"duration"`
	} `json:"rent"`
}

type catalogProduct struct {
	ProductID       string         `json:"product_id"`
	Title           string         `json:"title"`
	Subtitle        string         `json:"subtitle"`
	Manufacturer    string         `json:"manufacturer"`
	Reference       string         `json:"reference"`
	References      []apitest.Pair `json:"seller_product_references"`
	ListPrice       apitest.Money  `json:"list_price"`
	BaseRentalPrice *apitest.Money `json:"base_rental_price"`
	Archived        *bool          `json:"archived"`
	Origin          string         `json:"origin"`
	PrettyID        string         `json:"pretty_id"`
	PricingCategory string         `json:"pricing_category"`
	EAN             string         `json:"ean"`
	MPN             string         `json:"mpn"`
	Terms           contractTerms  `json:"available_contract_terms"`
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
