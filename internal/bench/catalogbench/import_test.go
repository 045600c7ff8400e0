package catalogbench_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"
)

const (
	importProducts  = 100_000
	importBatchSize = 250
)

// generatedProduct is product i of the deterministic benchmark catalog, in
// the Seller API's JSON.
func generatedProduct(r *rand.Rand, i int) map[string]any {
	net := 5000 + r.Int64N(500_000)
	return map[string]any{
		"title":               fmt.Sprintf("%s %s %s", pick(r, brands), pick(r, kinds), modelCode(r)),
		"subtitle":            pick(r, subtitles),
		"manufacturer":        pick(r, brands),
		"is_active":           true,
		"seller_product_type": "hardware",
		"seller_product_references": []map[string]any{
			{"source": "sku", "reference": fmt.Sprintf("SKU-%07d", i)},
			{"source": "ean", "reference": fmt.Sprintf("40%011d", i)},
		},
		"price":         map[string]any{"currency": "EUR", "net": net, "gross": (net*119 + 50) / 100, "tax_rate": 1900},
		"extra_details": []map[string]any{{"property": "warranty", "value": "24 months"}},
	}
}

// BenchmarkCatalogImport imports 100,000 products through POST
// /v1/catalog/import in batches of 250 (each runs in the product-import
// workflow) and reports products per second, from the first request until
// the last import has finished.
func BenchmarkCatalogImport(b *testing.B) {
	s := newServer(b, true)
	r := rand.New(rand.NewPCG(2024, 1))
	batches := make([][]map[string]any, 0, importProducts/importBatchSize)
	for start := 0; start < importProducts; start += importBatchSize {
		batch := make([]map[string]any, importBatchSize)
		for i := range batch {
			batch[i] = generatedProduct(r, start+i)
		}
		batches = append(batches, batch)
	}

	began := time.Now()
	ids := make([]string, len(batches))
	var requests latencies
	for i, batch := range batches {
		var res struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		}
		sent := time.Now()
		s.call(b, http.MethodPost, "/v1/catalog/import", map[string]any{"products": batch}, &res)
		requests = append(requests, time.Since(sent))
		if res.Status != "created" {
			b.Fatalf("batch %d: status %s", i, res.Status)
		}
		ids[i] = res.ID
	}
	accepted := time.Since(began)
	imported := 0
	for _, id := range ids {
		for {
			var res struct {
				Status  string `json:"status"`
				Summary struct {
					Imported int `json:"total_products_imported"`
				} `json:"summary"`
			}
			s.call(b, http.MethodGet, "/v1/catalog/import/"+id, nil, &res)
			if res.Status == "completed" || res.Status == "failed" {
				imported += res.Summary.Imported
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	elapsed := time.Since(began)
	if imported != importProducts {
		b.Fatalf("%d of %d products imported", imported, importProducts)
	}
	rate := float64(importProducts) / elapsed.Seconds()
	fmt.Printf("import: %d products in %d batches of %d: all accepted after %.1f s, all imported after %.1f s: %.0f products/s\n",
		importProducts, len(batches), importBatchSize, accepted.Seconds(), elapsed.Seconds(), rate)
	requests.report(b, "import request (accept a batch of 250)")
	b.ReportMetric(rate, "products/s")
}
