package services_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/services"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestNewestListsAreTheCountedListsPages holds the portal's uncounted
// lists (Offers.Newest, Orders.Newest) to the list endpoints' counted
// ones: the same records in the same order for every filter the portal
// uses, over two sellers' offers and orders made in the same instants.
func TestNewestListsAreTheCountedListsPages(t *testing.T) {
	store := testenv.Database(t)
	seller, other := uuid.New(), uuid.New()
	for _, sql := range []string{
		`INSERT INTO sellers (id, name, currency) VALUES ('` + seller.String() + `', 'A', 'EUR'), ('` + other.String() + `', 'B', 'EUR')`,
		`INSERT INTO offers (id, seller_id, seller_offer_reference, status, sales_channel, created_by, search_text, document, expires_at, created_at)
			SELECT gen_random_uuid(), s, 'ref-' || g, 'accepted', 'telesales', 'agent' || g % 3 || '@example.com',
			       'ref-' || g || ' company ' || g % 4, '{}', now() + interval '1 day', now() - make_interval(mins => g / 2)
			FROM generate_series(1, 120) g CROSS JOIN unnest(ARRAY['` + seller.String() + `'::uuid, '` + other.String() + `'::uuid]) s`,
		`INSERT INTO orders (id, seller_id, offer_id, seller_offer_reference, status, search_text, document, offer_created_at, created_at)
			SELECT gen_random_uuid(), o.seller_id, o.id, o.seller_offer_reference,
			       (ARRAY['created', 'confirmed', 'canceled'])[1 + substring(o.seller_offer_reference FROM 5)::int % 3],
			       o.search_text, '{}', o.created_at, o.created_at
			FROM offers o`,
	} {
		if _, err := store.Pool.Exec(t.Context(), sql); err != nil {
			t.Fatalf("%v\n%s", err, sql)
		}
	}
	offers, orders := &services.Offers{Store: store}, &services.Orders{Store: store}
	// The cursor of the id filters: the seller's greatest order id, so that
	// every filter below matches records whatever ids were drawn (the ids
	// are random: the newest order's, used before, was smaller than all of
	// a filter's matches in about one run in eleven).
	var older uuid.UUID
	if err := store.Pool.QueryRow(t.Context(), `SELECT id FROM orders WHERE seller_id = $1 ORDER BY id DESC LIMIT 1`, seller).Scan(&older); err != nil {
		t.Fatalf("the greatest order id: %v", err)
	}
	filters := []listing.Filter{
		{},
		{Query: "company 2"},
		{CreatedBy: []string{"agent1@example.com"}},
		{IDLt: &older},
		{Query: "company 1", CreatedBy: []string{"agent2@example.com"}, IDLt: &older},
	}
	for _, f := range filters {
		f.Descending, f.Limit = true, 25
		counted, total, err := offers.List(t.Context(), seller, f)
		if err != nil {
			t.Fatal(err)
		}
		newest, err := offers.Newest(t.Context(), seller, f)
		if err != nil {
			t.Fatal(err)
		}
		if total == 0 || len(newest) != len(counted) {
			t.Fatalf("offers %+v: Newest answers %d, List %d of %d", f, len(newest), len(counted), total)
		}
		for i := range counted {
			if newest[i].Row.ID != counted[i].Row.ID {
				t.Errorf("offers %+v: Newest's %d. is %s, List's %s", f, i, newest[i].Row.ID, counted[i].Row.ID)
			}
		}
	}
	for _, f := range []listing.Filter{{}, {Status: "confirmed"}, {Query: "company 3"}, {IDGte: &older, IDLte: &older},
		{Status: "canceled", Query: "company 0", IDLt: &older}} {
		f.Descending, f.Limit = true, 25
		counted, total, err := orders.List(t.Context(), seller, f)
		if err != nil {
			t.Fatal(err)
		}
		newest, err := orders.Newest(t.Context(), seller, f)
		if err != nil {
			t.Fatal(err)
		}
		if total == 0 || len(newest) != len(counted) {
			t.Fatalf("orders %+v: Newest answers %d, List %d of %d", f, len(newest), len(counted), total)
		}
		for i := range counted {
			if newest[i] != counted[i] {
				t.Errorf("orders %+v: Newest's %d. is %+v, List's %+v", f, i, newest[i], counted[i])
			}
		}
	}
}
