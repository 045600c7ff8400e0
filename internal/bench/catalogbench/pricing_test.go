package catalogbench_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"
)

const (
	pricedProducts  = 100
	pricingRequests = 1000
)

// BenchmarkCatalogRecommendedPrices asks for the recommended rental prices
// of 100 catalog products in one request, many times.
func BenchmarkCatalogRecommendedPrices(b *testing.B) {
	s := newServer(b, false)
	r := rand.New(rand.NewPCG(100, 1))
	items := make([]map[string]any, pricedProducts)
	for start := 0; start < pricedProducts; start += 9 { // batches under 10 import during the request
		batch := make([]map[string]any, 0, 9)
		for i := start; i < min(start+9, pricedProducts); i++ {
			p := generatedProduct(r, i)
			batch = append(batch, p)
			items[i] = map[string]any{"seller_product_reference": p["seller_product_references"].([]map[string]any)[0]}
		}
		s.call(b, http.MethodPost, "/v1/catalog/import", map[string]any{"products": batch}, nil)
	}
	body := map[string]any{"pricing_requests": items}
	for range 50 {
		s.call(b, http.MethodPost, "/v1/catalog/list-recommended-rental-prices", body, nil)
	}
	var took latencies
	for range pricingRequests {
		var prices []struct {
			HasRentalTerms bool `json:"has_rental_terms"`
		}
		sent := time.Now()
		s.call(b, http.MethodPost, "/v1/catalog/list-recommended-rental-prices", body, &prices)
		took = append(took, time.Since(sent))
		if len(prices) != pricedProducts || !prices[0].HasRentalTerms {
			b.Fatalf("got %d prices", len(prices))
		}
	}
	took.report(b, fmt.Sprintf("recommended rental prices for %d products", pricedProducts))
}
