package api_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
)

type offerRejection struct {
	Name       string `json:"name"`
	Message    string `json:"message"`
	References []pair `json:"references"`
}

func (f offerFixture) offerCount(t *testing.T) int {
	t.Helper()
	return f.h.productCount(t, f.seller.Seller.ID, "offers")
}

func TestOfferRejections(t *testing.T) {
	f := newOfferFixture(t)
	f.createOffer(t, offerPayload("taken"))
	cases := []struct {
		name    string
		payload map[string]any
		want    string
		refs    []pair
	}{
		{"no lines", offerPayload("r1", withField("lines", []any{})), "EmptyOffer", nil},
		{"unknown product", offerPayload("r2", withLine("sku", "nope")), "ProductsNotFound", []pair{{"sku", "nope"}}},
		{"inactive product", offerPayload("r3", withLine("sku", "old")), "ProductsNotSupported", []pair{{"sku", "old"}}},
		{"unknown shipping method", offerPayload("r4", withField("shipping", map[string]any{"seller_shipping_reference": "dhl", "price": map[string]any{"currency": "EUR", "net": 0, "gross": 0}})), "ShippingMethodNotSupported", nil},
		{"other currency", offerPayload("r5", withLinePrice("USD")), "CurrenciesMismatch", []pair{{"sku", "laptop"}}},
		{"ecommerce without address", offerPayload("r6", withoutField("shipping_address")), "ShippingAddressRequired", nil},
		{"expiry in the past", offerPayload("r7", withField("expires_at", time.Now().Add(-time.Minute).UTC().Format(time.RFC3339))), "ExpiryInThePast", nil},
		{"active reference", offerPayload("taken"), "DuplicateSellerOfferReference", nil},
	}
	before := f.offerCount(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/v1/offers", "/v1/offers/validate"} {
				resp := f.h.do(t, http.MethodPost, path, f.token, tc.payload)
				if resp.status != http.StatusUnprocessableEntity {
					t.Fatalf("%s: %d %s", path, resp.status, resp.body)
				}
				if ct := resp.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					t.Errorf("offer 422s are application/json, got %s", ct)
				}
				var r offerRejection
				resp.decode(t, &r)
				if r.Name != tc.want || r.Message == "" {
					t.Errorf("%s: got %+v, want %s", path, r, tc.want)
				}
				if tc.refs != nil && (len(r.References) != len(tc.refs) || r.References[0] != tc.refs[0]) {
					t.Errorf("%s: references %+v, want %+v", path, r.References, tc.refs)
				}
			}
		})
	}
	if after := f.offerCount(t); after != before {
		t.Errorf("refused payloads wrote %d offers", after-before)
	}
}

func withLine(source, reference string) func(map[string]any) {
	return func(p map[string]any) {
		p["lines"] = []map[string]any{{"title": "Thing", "quantity": 1, "seller_product_reference": ref(source, reference),
			"price": map[string]any{"currency": "EUR", "net": 90000}}}
	}
}

func withLinePrice(currency string) func(map[string]any) {
	return func(p map[string]any) {
		p["lines"].([]map[string]any)[0]["price"] = map[string]any{"currency": currency, "net": 150000}
	}
}

func withoutField(key string) func(map[string]any) {
	return func(p map[string]any) { delete(p, key) }
}

func TestOfferBadInput(t *testing.T) {
	f := newOfferFixture(t)
	cases := map[string]struct {
		body any
		want string
	}{
		"malformed json":  {`{"lines": [`, "not valid JSON"},
		"wrong type":      {offerPayload("b1", withField("expires_at", 42)), "expires_at"},
		"unknown channel": {offerPayload("b2", withField("sales_channel", "fax")), "sales_channel"},
		"long reference":  {offerPayload(strings.Repeat("r", 256)), "seller_offer_reference"},
		"zero quantity":   {offerPayload("b3", func(p map[string]any) { p["lines"].([]map[string]any)[0]["quantity"] = 0 }), "quantity"},
		"gross below net": {offerPayload("b4", func(p map[string]any) {
			p["lines"].([]map[string]any)[0]["price"] = map[string]any{"currency": "EUR", "net": 100, "gross": 90}
		}), "lines[0].price"},
		"negative price": {offerPayload("b5", func(p map[string]any) {
			p["lines"].([]map[string]any)[0]["price"] = map[string]any{"currency": "EUR", "net": -5}
		}), "lines[0].price"},
		"missing lines": {offerPayload("b6", withoutField("lines")), "lines"},
	}
	before := f.offerCount(t)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := f.h.do(t, http.MethodPost, "/v1/offers", f.token, tc.body)
			if resp.status != http.StatusBadRequest {
				t.Fatalf("got %d %s", resp.status, resp.body)
			}
			if e := resp.apiError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("message %q does not name %q", e["message"], tc.want)
			}
		})
	}
	for _, id := range []string{"not_an_id", "a.b"} {
		if resp := f.h.do(t, http.MethodGet, "/v1/offers/"+id, f.token, nil); resp.status != http.StatusBadRequest {
			t.Errorf("GET /v1/offers/%s: %d", id, resp.status)
		}
	}
	if after := f.offerCount(t); after != before {
		t.Errorf("bad input wrote %d offers", after-before)
	}
}

func TestValidateOfferCreatesNothing(t *testing.T) {
	f := newOfferFixture(t)
	resp := f.h.do(t, http.MethodPost, "/v1/offers/validate", f.token, offerPayload("v1"))
	if resp.status != http.StatusOK {
		t.Fatalf("got %d %s", resp.status, resp.body)
	}
	var r struct {
		PricingOverview struct {
			TotalAmount money `json:"total_amount"`
		} `json:"pricing_overview"`
	}
	resp.decode(t, &r)
	if r.PricingOverview.TotalAmount.Net <= 0 || f.offerCount(t) != 0 {
		t.Errorf("validation prices and creates nothing: %s, %d offers", resp.body, f.offerCount(t))
	}
}

func TestScenarioRefusals(t *testing.T) {
	f := newOfferFixture(t)
	o := f.createOffer(t, offerPayload("s1"))
	resp := f.simulate(t, "mark_offer_declined", map[string]any{"id": o.ID})
	want := "Error when simulating scenario mark_offer_declined: offers with status=created cannot be declined"
	if resp.status != http.StatusUnprocessableEntity || resp.apiError(t)["message"] != want {
		t.Errorf("declining a created offer: %d %s", resp.status, resp.body)
	}
	resp = f.simulate(t, "mark_offer_accepted", map[string]any{"id": "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"})
	if resp.status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.body), "offer 0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f not found") {
		t.Errorf("an unknown offer: %d %s", resp.status, resp.body)
	}
	for name, input := range map[string]any{"no id": map[string]any{}, "not a uuid": map[string]any{"id": "x"}, "not an object": "abc"} {
		if resp := f.h.do(t, http.MethodPost, "/v1/scenario_simulations/mark_offer_voided", f.token, map[string]any{"scenario_input": input}); resp.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, resp.status, resp.body)
		}
	}
	if resp := f.simulate(t, "mark_everything_paid", map[string]any{"id": o.ID}); resp.status != http.StatusBadRequest {
		t.Errorf("an unknown scenario: %d %s", resp.status, resp.body)
	}

	f.mustSimulate(t, "mark_offer_voided", o.ID)
	resp = f.simulate(t, "mark_offer_voided", map[string]any{"id": o.ID})
	if resp.status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.body), "offers with status=voided cannot be voided") {
		t.Errorf("voiding twice: %d %s", resp.status, resp.body)
	}
	if got := f.getOffer(t, o.ID); got.Status != "voided" {
		t.Errorf("status %s", got.Status)
	}
}

func TestScenariosAreSandboxOnly(t *testing.T) {
	h := newHarness(t, func(c *config.Config) { c.Environment = config.Production })
	s := h.seller(t)
	resp := h.do(t, http.MethodPost, "/v1/scenario_simulations/mark_offer_accepted", h.token(t, s, "client"),
		map[string]any{"scenario_input": map[string]any{"id": "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"}})
	if resp.status != http.StatusNotFound {
		t.Errorf("production has no simulations: %d %s", resp.status, resp.body)
	}
}

func TestEditOffer(t *testing.T) {
	f := newOfferFixture(t)
	old := f.createOffer(t, offerPayload("edit-me"))
	resp := f.h.do(t, http.MethodPut, "/v1/offers/"+old.ID, f.token, offerPayload("edit-me", withField("metadata", map[string]any{"v": "2"})))
	if resp.status != http.StatusAccepted {
		t.Fatalf("edit: %d %s", resp.status, resp.body)
	}
	var replacement offerView
	resp.decode(t, &replacement)
	if replacement.ID == old.ID || replacement.Status != "created" || replacement.Reference != "edit-me" || replacement.Metadata["v"] != "2" {
		t.Errorf("the edit returns the superseding offer: %+v", replacement)
	}
	voided := f.getOffer(t, old.ID)
	if voided.Status != "voided" || voided.SupersededByID != replacement.ID {
		t.Errorf("the old offer is voided and names its replacement: %+v", voided)
	}
	if got := strings.Join(f.eventTypes(t, old.ID), ","); got != "offer.voided" {
		t.Errorf("events of the old offer: %s", got)
	}

	// A rejected replacement changes nothing.
	resp = f.h.do(t, http.MethodPut, "/v1/offers/"+replacement.ID, f.token, offerPayload("edit-me", withLine("sku", "nope")))
	if resp.status != http.StatusUnprocessableEntity || f.getOffer(t, replacement.ID).Status != "created" {
		t.Errorf("an invalid edit: %d %s", resp.status, resp.body)
	}
	// Once checked out, an offer cannot be edited.
	f.mustSimulate(t, "mark_offer_for_review", replacement.ID)
	resp = f.h.do(t, http.MethodPut, "/v1/offers/"+replacement.ID, f.token, offerPayload("edit-me"))
	var r offerRejection
	resp.decode(t, &r)
	if resp.status != http.StatusUnprocessableEntity || r.Name != "AlreadyCheckedOut" {
		t.Errorf("editing an offer under review: %d %s", resp.status, resp.body)
	}
	if n := f.offerCount(t); n != 2 {
		t.Errorf("%d offers, want the original and its replacement", n)
	}
}

func TestVoidNamingTheSupersedingOffer(t *testing.T) {
	f := newOfferFixture(t)
	a := f.createOffer(t, offerPayload("va"))
	b := f.createOffer(t, offerPayload("vb"))
	other := newOfferFixture(t)
	foreign := other.createOffer(t, offerPayload("vc"))
	for name, by := range map[string]string{"itself": a.ID, "unknown": "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f", "another seller's": foreign.ID} {
		resp := f.h.do(t, http.MethodPost, "/v1/offers/"+a.ID+"/void", f.token, map[string]any{"superseded_by_id": by})
		if resp.status != http.StatusUnprocessableEntity {
			t.Errorf("superseded by %s: %d %s", name, resp.status, resp.body)
		}
	}
	if got := f.getOffer(t, a.ID); got.Status != "created" {
		t.Fatalf("refused voids changed the offer: %s", got.Status)
	}
	resp := f.h.do(t, http.MethodPost, "/v1/offers/"+a.ID+"/void", f.token, map[string]any{"superseded_by_id": b.ID})
	var voided offerView
	resp.decode(t, &voided)
	if resp.status != http.StatusOK || voided.Status != "voided" || voided.SupersededByID != b.ID {
		t.Errorf("void: %d %s", resp.status, resp.body)
	}
}

func TestOffersAreIsolated(t *testing.T) {
	a, b := newOfferFixture(t), newOfferFixture(t)
	o := a.createOffer(t, offerPayload("shared-ref"))
	for _, req := range [][2]string{{"GET", "/v1/offers/" + o.ID}, {"GET", "/v1/offers/ref/shared-ref"}, {"POST", "/v1/offers/" + o.ID + "/void"}, {"PUT", "/v1/offers/" + o.ID}} {
		var body any
		if req[0] == "PUT" {
			body = offerPayload("x")
		} else if req[0] == "POST" {
			body = map[string]any{}
		}
		// The published contract lists no 404 for editing an offer: an
		// offer the caller cannot see is refused with its 400.
		want := http.StatusNotFound
		if req[0] == "PUT" {
			want = http.StatusBadRequest
		}
		if resp := b.h.do(t, req[0], req[1], b.token, body); resp.status != want || !strings.Contains(string(resp.body), "offer not found") {
			t.Errorf("seller B %s %s: %d %s", req[0], req[1], resp.status, resp.body)
		}
	}
	if resp := b.simulate(t, "mark_offer_voided", map[string]any{"id": o.ID}); resp.status != http.StatusUnprocessableEntity {
		t.Errorf("seller B voids A's offer by simulation: %d", resp.status)
	}
	var page struct{ Offers []offerView }
	b.h.do(t, http.MethodGet, "/v1/offers/paginated", b.token, nil).decode(t, &page)
	if len(page.Offers) != 0 {
		t.Errorf("seller B lists A's offers")
	}
	b.createOffer(t, offerPayload("shared-ref")) // references are per seller
	if got := a.getOffer(t, o.ID); got.Status != "created" {
		t.Errorf("seller B changed A's offer: %s", got.Status)
	}
}

func TestOfferExpiresAtExpiresAt(t *testing.T) {
	f := newOfferFixture(t)
	expires := time.Now().Add(3 * time.Second).UTC().Truncate(time.Second).Add(time.Second)
	o := f.createOffer(t, offerPayload("soon", withField("expires_at", expires.Format(time.RFC3339))))
	deadline := time.Now().Add(30 * time.Second)
	for f.getOffer(t, o.ID).Status != "expired" {
		if time.Now().After(deadline) {
			t.Fatal("the offer did not expire")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if time.Now().Before(expires) {
		t.Errorf("expired before expires_at")
	}
	if got := strings.Join(f.eventTypes(t, o.ID), ","); got != "offer.expired" {
		t.Errorf("events %s", got)
	}
}

// Two requests racing on one offer: exactly one wins, nothing is
// half-written.
func TestRacingVoidAndAccept(t *testing.T) {
	f := newOfferFixture(t)
	for i := range 5 {
		o := f.createOffer(t, offerPayload("race-"+string(rune('a'+i))))
		f.mustSimulate(t, "mark_offer_for_review", o.ID)
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		for j, scenario := range []string{"mark_offer_voided", "mark_offer_accepted"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[j] = f.simulate(t, scenario, map[string]any{"id": o.ID}).status
			}()
		}
		wg.Wait()
		wins := 0
		for _, s := range statuses {
			if s == http.StatusOK {
				wins++
			} else if s != http.StatusUnprocessableEntity {
				t.Fatalf("a racing request got %d", s)
			}
		}
		final := f.getOffer(t, o.ID).Status
		var orders int
		_ = f.h.store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM orders WHERE offer_id = $1", o.ID).Scan(&orders)
		if wins != 1 || (final == "accepted") != (orders == 1) || (final != "accepted" && final != "voided") {
			t.Errorf("round %d: statuses %v, final %s, %d orders", i, statuses, final, orders)
		}
	}
}

func TestOfferLists(t *testing.T) {
	f := newOfferFixture(t)
	a := f.createOffer(t, offerPayload("list-a", withField("expires_at", time.Now().Add(96*time.Hour).UTC().Format(time.RFC3339))))
	b := f.createOffer(t, offerPayload("list-b", withField("sales_agent", map[string]any{"name": "Pat Partner", "email": "pat@partner.example", "phone": "1"})))
	resp := f.h.do(t, http.MethodPost, "/v1/offers/partners", f.token, offerPayload("list-c"))
	if resp.status != http.StatusCreated {
		t.Fatalf("partner offer: %d %s", resp.status, resp.body)
	}
	var c offerView
	resp.decode(t, &c)
	f.mustSimulate(t, "mark_offer_for_review", b.ID)

	ids := func(query string) []string {
		t.Helper()
		resp := f.h.do(t, http.MethodGet, "/v1/offers/paginated?"+query, f.token, nil)
		if resp.status != http.StatusOK {
			t.Fatalf("%s: %d %s", query, resp.status, resp.body)
		}
		var page struct{ Offers []offerView }
		resp.decode(t, &page)
		var out []string
		for _, o := range page.Offers {
			out = append(out, o.ID)
		}
		return out
	}
	same := func(name string, got []string, want ...string) {
		t.Helper()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	same("default order", ids(""), a.ID, b.ID, c.ID)
	same("descending", ids("sort_order=desc"), c.ID, b.ID, a.ID)
	same("by status", ids("sort_by=status"), a.ID, c.ID, b.ID)
	same("by expiry, latest first", ids("sort_by=expires_at&sort_order=desc")[:1], a.ID)
	same("id_gt traversal", ids("limit=1&id_gt="+a.ID), b.ID)
	same("id_gte", ids("id_gte="+b.ID), b.ID, c.ID)
	same("id_lte", ids("id_lte="+b.ID), a.ID, b.ID)
	same("partners only", ids("partners_only=true"), c.ID)
	same("created by", ids("created_by=PAT@partner.example,nobody@x.example"), b.ID)
	same("query", ids("query=LIST-B"), b.ID)
	same("query with a wildcard", ids("query=list_"))
	same("created after everything", ids("created_at_gt="+time.Now().Add(time.Hour).UTC().Format(time.RFC3339)))
	same("created before now", ids("created_at_lte="+time.Now().Add(time.Minute).UTC().Format(time.RFC3339)), a.ID, b.ID, c.ID)

	var list []offerView
	f.h.do(t, http.MethodGet, "/v1/offers?partners_only=true", f.token, nil).decode(t, &list)
	if len(list) != 1 || list[0].ID != c.ID {
		t.Errorf("the deprecated list: %+v", list)
	}
	resp = f.h.do(t, http.MethodGet, "/v1/offers/ref/list-b", f.token, nil)
	var byRef offerView
	resp.decode(t, &byRef)
	if byRef.ID != b.ID || byRef.Status != "pending_review" {
		t.Errorf("by reference: %+v", byRef)
	}
	for _, q := range []string{"limit=0", "page=-1", "sort_by=price", "sort_order=up", "id_gt=1", "created_at_lt=soon"} {
		if resp := f.h.do(t, http.MethodGet, "/v1/offers/paginated?"+q, f.token, nil); resp.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", q, resp.status, resp.body)
		}
	}
	// The spec caps a page at 100 instead of refusing a larger limit.
	var capped struct {
		Pagination struct {
			PageSize int64 `json:"page_size"`
		} `json:"pagination"`
	}
	resp = f.h.do(t, http.MethodGet, "/v1/offers/paginated?limit=1000", f.token, nil)
	resp.decode(t, &capped)
	if resp.status != http.StatusOK || capped.Pagination.PageSize != 100 {
		t.Errorf("limit=1000: %d %s", resp.status, resp.body)
	}
}
