package csvimport_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/csvimport"
)

// A file import stores its products outside the trigram index; a term
// search finds them all the same, and finds the same once SearchIndexer
// has let them in, a batch at a time.
func TestImportedProductsAreFoundBeforeAndAfterTheyAreIndexed(t *testing.T) {
	p, bucket := newProcessor(t)
	id, stats := queuedJob(t, p.Store, bucket, 6000)
	job, err := p.Process(t.Context(), id, func(csvimport.Job) {})
	if err != nil {
		t.Fatal(err)
	}
	stored := int64(stats.Rows - stats.Invalid)
	pending := func() int64 {
		var n int64
		if err := p.Store.Pool.QueryRow(t.Context(), `SELECT count(*) FROM products WHERE seller_id = $1 AND search_pending`, job.SellerID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := pending(); n != stored {
		t.Fatalf("%d of the %d stored products wait for the index, want all", n, stored)
	}

	// Terms a seller or an agent would type: a whole reference, part of a
	// title in other case, a manufacturer's name.
	var reference, title, manufacturer string
	if err := p.Store.Pool.QueryRow(t.Context(), `
		SELECT r.reference, p.title, p.manufacturer FROM products p JOIN product_references r ON r.product_id = p.id
		WHERE p.seller_id = $1 AND p.is_active AND p.manufacturer <> '' AND length(p.title) > 8
		ORDER BY p.id DESC LIMIT 1`, job.SellerID).Scan(&reference, &title, &manufacturer); err != nil {
		t.Fatal(err)
	}
	terms := []string{reference, strings.ToUpper(title[2:8]), manufacturer}
	search := func() map[string][]uuid.UUID {
		found := map[string][]uuid.UUID{}
		for _, term := range terms {
			page, err := catalog.Search(t.Context(), p.Store, catalog.Query{SellerID: job.SellerID, Term: term, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			if page.Total == 0 {
				t.Errorf("term %q found nothing", term)
			}
			for _, item := range page.Items {
				found[term] = append(found[term], item.ID)
			}
		}
		return found
	}
	before := search()

	var beats []int64
	indexed, err := catalog.SearchIndexer{Store: p.Store}.Index(t.Context(), job.SellerID, func(n int64) { beats = append(beats, n) })
	if err != nil {
		t.Fatal(err)
	}
	if indexed != stored || pending() != 0 {
		t.Errorf("indexed %d, %d still pending; want all %d", indexed, pending(), stored)
	}
	if want := []int64{catalog.SearchIndexBatch, stored}; !slices.Equal(beats, want) {
		t.Errorf("progress %v, want %v (one call per batch)", beats, want)
	}
	after := search()
	for _, term := range terms {
		if !slices.Equal(before[term], after[term]) {
			t.Errorf("term %q found %v before indexing, %v after", term, before[term], after[term])
		}
	}

	// Nothing left to index: one empty batch.
	if again, err := (catalog.SearchIndexer{Store: p.Store}).Index(t.Context(), job.SellerID, nil); err != nil || again != 0 {
		t.Errorf("indexing again: %d (%v)", again, err)
	}
}
