package catalogbench_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/domain/catalog"
)

const (
	searchProducts = 1_000_000
	// searchTerm is the manufacturer of every 100th product: it matches
	// 1 % of the catalog.
	searchTerm      = "zentrix"
	searchPageSize  = 20
	searchRequests  = 500
	searchIndexName = "products_search_text_trgm_idx"
)

// BenchmarkCatalogSearch loads 1,000,000 products straight into PostgreSQL
// with COPY (an API import of that size would dominate the run), then
// measures GET /v1/catalog/products_paginated for a term that matches 1 % of
// them, on pages spread over the whole result.
func BenchmarkCatalogSearch(b *testing.B) {
	s := newServer(b, false)
	began := time.Now()
	loadCatalog(b, s)
	fmt.Printf("search: loaded %d products in %.0f s\n", searchProducts, time.Since(began).Seconds())

	var matches int
	if err := s.store.Pool.QueryRow(b.Context(), "SELECT count(*) FROM products WHERE search_text LIKE '%"+searchTerm+"%'").Scan(&matches); err != nil {
		b.Fatal(err)
	}
	pages := (matches + searchPageSize - 1) / searchPageSize
	r := rand.New(rand.NewPCG(7, 7))
	for range 20 { // warm the caches and the connection pool
		s.call(b, http.MethodGet, fmt.Sprintf("/v1/catalog/products_paginated?term=%s&limit=%d&page=%d", searchTerm, searchPageSize, r.IntN(pages)), nil, nil)
	}
	var took latencies
	for range searchRequests {
		var page struct {
			TotalRows int `json:"totalRows"`
			Rows      []struct {
				Manufacturer string `json:"manufacturer"`
			} `json:"rows"`
		}
		path := fmt.Sprintf("/v1/catalog/products_paginated?term=%s&limit=%d&page=%d", searchTerm, searchPageSize, r.IntN(pages))
		sent := time.Now()
		s.call(b, http.MethodGet, path, nil, &page)
		took = append(took, time.Since(sent))
		if page.TotalRows != matches || len(page.Rows) == 0 || page.Rows[0].Manufacturer != "Zentrix" {
			b.Fatalf("%s: %d rows of %d, want %d", path, len(page.Rows), page.TotalRows, matches)
		}
	}
	took.report(b, fmt.Sprintf("search %q over %d products (%d matches, random pages of %d)", searchTerm, searchProducts, matches, searchPageSize))
}

// loadCatalog copies the deterministic million-product catalog in. The
// trigram index is dropped during the copy and rebuilt from the
// migration's own definition afterwards, which is much faster than
// maintaining it row by row.
func loadCatalog(b *testing.B, s *server) {
	ctx := b.Context()
	var indexDef string
	if err := s.store.Pool.QueryRow(ctx, "SELECT indexdef FROM pg_indexes WHERE indexname = $1", searchIndexName).Scan(&indexDef); err != nil {
		b.Fatal(err)
	}
	if _, err := s.store.Pool.Exec(ctx, "DROP INDEX "+searchIndexName); err != nil {
		b.Fatal(err)
	}
	ids := make([]uuid.UUID, searchProducts)
	r := rand.New(rand.NewPCG(1_000_000, 1))
	rows := 0
	_, err := s.store.Pool.CopyFrom(ctx, pgx.Identifier{"products"},
		[]string{"id", "seller_id", "title", "subtitle", "manufacturer", "product_type", "is_active", "currency", "price_net", "price_gross",
			"tax_rate", "ean", "mpn", "pretty_id", "origin", "pricing_category", "support_status", "search_text"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if rows == searchProducts {
				return nil, nil
			}
			i := rows
			rows++
			ids[i] = orderedID(r, i)
			p := generatedCatalogProduct(r, i)
			return []any{ids[i], s.seller, p.Title, p.Subtitle, p.Manufacturer, "hardware", true, "EUR", p.ListPrice.Net, p.ListPrice.Gross,
				int64(1900), p.EAN, p.MPN, p.PrettyID(), string(catalog.OriginManual), "hardware", string(catalog.Supported), catalog.SearchText(p)}, nil
		}))
	if err != nil {
		b.Fatal(err)
	}
	refs := 0
	_, err = s.store.Pool.CopyFrom(ctx, pgx.Identifier{"product_references"}, []string{"seller_id", "source", "reference", "product_id", "position"},
		pgx.CopyFromFunc(func() ([]any, error) {
			if refs == searchProducts {
				return nil, nil
			}
			refs++
			return []any{s.seller, "sku", fmt.Sprintf("SKU-%07d", refs-1), ids[refs-1], int32(0)}, nil
		}))
	if err != nil {
		b.Fatal(err)
	}
	// One connection, so the memory setting applies to the index build.
	conn, err := s.store.Pool.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Release()
	for _, stmt := range []string{"SET maintenance_work_mem = '512MB'", indexDef, "VACUUM ANALYZE products", "VACUUM ANALYZE product_references"} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			b.Fatalf("%s: %v", stmt, err)
		}
	}
}

// generatedCatalogProduct is product i: every 100th is made by Zentrix.
func generatedCatalogProduct(r *rand.Rand, i int) catalog.Product {
	brand := pick(r, brands)
	if i%100 == 0 {
		brand = "Zentrix"
	}
	net := 5000 + r.Int64N(500_000)
	p := catalog.Product{
		ProductInput: catalog.ProductInput{
			Title:        fmt.Sprintf("%s %s %s", brand, pick(r, kinds), modelCode(r)),
			Subtitle:     pick(r, subtitles),
			Manufacturer: brand,
			References:   []catalog.Reference{{Source: "sku", Reference: fmt.Sprintf("SKU-%07d", i)}},
		},
		EAN: fmt.Sprintf("40%011d", i),
		MPN: modelCode(r),
	}
	p.ListPrice.Net, p.ListPrice.Gross = net, (net*119+50)/100
	return p
}

// orderedID is a deterministic UUIDv7-shaped id whose order is i's.
func orderedID(r *rand.Rand, i int) uuid.UUID {
	var id uuid.UUID
	binary.BigEndian.PutUint64(id[:8], uint64(1_700_000_000_000+i)<<16)
	binary.BigEndian.PutUint64(id[8:], r.Uint64())
	id[6] = 0x70 | id[6]&0x0f
	id[8] = 0x80 | id[8]&0x3f
	return id
}
