package seller_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

type offerRejection struct {
	Name       string         `json:"name"`
	Message    string         `json:"message"`
	References []apitest.Pair `json:"references"`
}

func offerCount(t *testing.T, f apitest.OfferFixture) int {
	t.Helper()
	return productCount(t, f.Harness, f.Seller.Seller.ID, "offers")
}

func TestOfferRejections(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	f.CreateOffer(t, apitest.OfferPayload("taken"))
	cases := []struct {
		name    string
		payload map[string]any
		want    string
		refs    []apitest.Pair
	}{
		{"no lines", apitest.OfferPayload("r1", apitest.WithField("lines", []any{})), "EmptyOffer", nil},
		{"unknown product", apitest.OfferPayload("r2", withLine("sku", "nope")), "ProductsNotFound", []apitest.Pair{{Source: "sku", Reference: "nope"}}},
		{"inactive product", apitest.OfferPayload("r3", withLine("sku", "old")), "ProductsNotSupported", []apitest.Pair{{Source: "sku", Reference: "old"}}},
		{"unknown shipping method", apitest.OfferPayload("r4", apitest.WithField("shipping", map[string]any{"seller_shipping_reference": "dhl", "price": map[string]any{"currency": "EUR", "net": 0, "gross": 0}})), "ShippingMethodNotSupported", nil},
		{"other currency", apitest.OfferPayload("r5", withLinePrice("USD")), "CurrenciesMismatch", []apitest.Pair{{Source: "sku", Reference: "laptop"}}},
		{"ecommerce without address", apitest.OfferPayload("r6", withoutField("shipping_address")), "ShippingAddressRequired", nil},
		{"expiry in the past", apitest.OfferPayload("r7", apitest.WithField("expires_at", time.Now().Add(-time.Minute).UTC().Format(time.RFC3339))), "ExpiryInThePast", nil},
		{"active reference", apitest.OfferPayload("taken"), "DuplicateSellerOfferReference", nil},
	}
	before := offerCount(t, f)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/v1/offers", "/v1/offers/validate"} {
				resp := f.Harness.Do(t, http.MethodPost, path, f.Token, tc.payload)
				if resp.Status != http.StatusUnprocessableEntity {
					t.Fatalf("%s: %d %s", path, resp.Status, resp.Body)
				}
				if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					t.Errorf("offer 422s are application/json, got %s", ct)
				}
				var r offerRejection
				resp.Decode(t, &r)
				if r.Name != tc.want || r.Message == "" {
					t.Errorf("%s: got %+v, want %s", path, r, tc.want)
				}
				if tc.refs != nil && (len(r.References) != len(tc.refs) || r.References[0] != tc.refs[0]) {
					t.Errorf("%s: references %+v, want %+v", path, r.References, tc.refs)
				}
			}
		})
	}
	if after := offerCount(t, f); after != before {
		t.Errorf("refused payloads wrote %d offers", after-before)
	}
}

func withLine(source, reference string) func(map[string]any) {
	return func(p map[string]any) {
		p["lines"] = []map[string]any{{"title": "Thing", "quantity": 1, "seller_product_reference": apitest.Ref(source, reference),
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
	f := apitest.NewOfferFixture(t)
	cases := map[string]struct {
		body any
		want string
	}{
		"malformed json":  {`{"lines": [`, "not valid JSON"},
		"wrong type":      {apitest.OfferPayload("b1", apitest.WithField("expires_at", 42)), "expires_at"},
		"unknown channel": {apitest.OfferPayload("b2", apitest.WithField("sales_channel", "fax")), "sales_channel"},
		"long reference":  {apitest.OfferPayload(strings.Repeat("r", 256)), "seller_offer_reference"},
		"zero quantity":   {apitest.OfferPayload("b3", func(p map[string]any) { p["lines"].([]map[string]any)[0]["quantity"] = 0 }), "quantity"},
		"gross below net": {apitest.OfferPayload("b4", func(p map[string]any) {
			p["lines"].([]map[string]any)[0]["price"] = map[string]any{"currency": "EUR", "net": 100, "gross": 90}
		}), "lines[0].price"},
		"negative price": {apitest.OfferPayload("b5", func(p map[string]any) {
			p["lines"].([]map[string]any)[0]["price"] = map[string]any{"currency": "EUR", "net": -5}
		}), "lines[0].price"},
		"missing lines": {apitest.OfferPayload("b6", withoutField("lines")), "lines"},
	}
	before := offerCount(t, f)
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := f.Harness.Do(t, http.MethodPost, "/v1/offers", f.Token, tc.body)
			if resp.Status != http.StatusBadRequest {
				t.Fatalf("got %d %s", resp.Status, resp.Body)
			}
			if e := resp.APIError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("message %q does not name %q", e["message"], tc.want)
			}
		})
	}
	for _, id := range []string{"not_an_id", "a.b"} {
		if resp := f.Harness.Do(t, http.MethodGet, "/v1/offers/"+id, f.Token, nil); resp.Status != http.StatusBadRequest {
			t.Errorf("GET /v1/offers/%s: %d", id, resp.Status)
		}
	}
	if after := offerCount(t, f); after != before {
		t.Errorf("bad input wrote %d offers", after-before)
	}
}

func TestValidateOfferCreatesNothing(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	resp := f.Harness.Do(t, http.MethodPost, "/v1/offers/validate", f.Token, apitest.OfferPayload("v1"))
	if resp.Status != http.StatusOK {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var r struct {
		PricingOverview struct {
			TotalAmount apitest.Money `json:"total_amount"`
		} `json:"pricing_overview"`
	}
	resp.Decode(t, &r)
	if r.PricingOverview.TotalAmount.Net <= 0 || offerCount(t, f) != 0 {
		t.Errorf("validation prices and creates nothing: %s, %d offers", resp.Body, offerCount(t, f))
	}
}

func TestScenarioRefusals(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	o := f.CreateOffer(t, apitest.OfferPayload("s1"))
	resp := f.Simulate(t, "mark_offer_declined", map[string]any{"id": o.ID})
	want := "Error when simulating scenario mark_offer_declined: offers with status=created cannot be declined"
	if resp.Status != http.StatusUnprocessableEntity || resp.APIError(t)["message"] != want {
		t.Errorf("declining a created offer: %d %s", resp.Status, resp.Body)
	}
	resp = f.Simulate(t, "mark_offer_accepted", map[string]any{"id": "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"})
	if resp.Status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.Body), "offer 0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f not found") {
		t.Errorf("an unknown offer: %d %s", resp.Status, resp.Body)
	}
	for name, input := range map[string]any{"no id": map[string]any{}, "not a uuid": map[string]any{"id": "x"}, "not an object": "abc"} {
		if resp := f.Harness.Do(t, http.MethodPost, "/v1/scenario_simulations/mark_offer_voided", f.Token, map[string]any{"scenario_input": input}); resp.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, resp.Status, resp.Body)
		}
	}
	if resp := f.Simulate(t, "mark_everything_paid", map[string]any{"id": o.ID}); resp.Status != http.StatusBadRequest {
		t.Errorf("an unknown scenario: %d %s", resp.Status, resp.Body)
	}

	f.MustSimulate(t, "mark_offer_voided", o.ID)
	resp = f.Simulate(t, "mark_offer_voided", map[string]any{"id": o.ID})
	if resp.Status != http.StatusUnprocessableEntity || !strings.Contains(string(resp.Body), "offers with status=voided cannot be voided") {
		t.Errorf("voiding twice: %d %s", resp.Status, resp.Body)
	}
	if got := f.GetOffer(t, o.ID); got.Status != "voided" {
		t.Errorf("status %s", got.Status)
	}
}

func TestScenariosAreSandboxOnly(t *testing.T) {
	h := apitest.New(t, func(c *config.Config) { c.Environment = config.Production })
	s := h.Seller(t)
	resp := h.Do(t, http.MethodPost, "/v1/scenario_simulations/mark_offer_accepted", h.Token(t, s, "client"),
		map[string]any{"scenario_input": map[string]any{"id": "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"}})
	if resp.Status != http.StatusNotFound {
		t.Errorf("production has no simulations: %d %s", resp.Status, resp.Body)
	}
}

func TestEditOffer(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	old := f.CreateOffer(t, apitest.OfferPayload("edit-me"))
	resp := f.Harness.Do(t, http.MethodPut, "/v1/offers/"+old.ID, f.Token, apitest.OfferPayload("edit-me", apitest.WithField("metadata", map[string]any{"v": "2"})))
	if resp.Status != http.StatusAccepted {
		t.Fatalf("edit: %d %s", resp.Status, resp.Body)
	}
	var replacement apitest.OfferView
	resp.Decode(t, &replacement)
	if replacement.ID == old.ID || replacement.Status != "created" || replacement.Reference != "edit-me" || replacement.Metadata["v"] != "2" {
		t.Errorf("the edit returns the superseding offer: %+v", replacement)
	}
	voided := f.GetOffer(t, old.ID)
	if voided.Status != "voided" || voided.SupersededByID != replacement.ID {
		t.Errorf("the old offer is voided and names its replacement: %+v", voided)
	}
	if got := strings.Join(f.EventTypes(t, old.ID), ","); got != "offer.voided" {
		t.Errorf("events of the old offer: %s", got)
	}

	// A rejected replacement changes nothing.
	resp = f.Harness.Do(t, http.MethodPut, "/v1/offers/"+replacement.ID, f.Token, apitest.OfferPayload("edit-me", withLine("sku", "nope")))
	if resp.Status != http.StatusUnprocessableEntity || f.GetOffer(t, replacement.ID).Status != "created" {
		t.Errorf("an invalid edit: %d %s", resp.Status, resp.Body)
	}
	// Once checked out, an offer cannot be edited.
	f.MustSimulate(t, "mark_offer_for_review", replacement.ID)
	resp = f.Harness.Do(t, http.MethodPut, "/v1/offers/"+replacement.ID, f.Token, apitest.OfferPayload("edit-me"))
	var r offerRejection
	resp.Decode(t, &r)
	if resp.Status != http.StatusUnprocessableEntity || r.Name != "AlreadyCheckedOut" {
		t.Errorf("editing an offer under review: %d %s", resp.Status, resp.Body)
	}
	if n := offerCount(t, f); n != 2 {
		t.Errorf("%d offers, want the original and its replacement", n)
	}
}

func TestVoidNamingTheSupersedingOffer(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	a := f.CreateOffer(t, apitest.OfferPayload("va"))
	b := f.CreateOffer(t, apitest.OfferPayload("vb"))
	other := apitest.NewOfferFixture(t)
	foreign := other.CreateOffer(t, apitest.OfferPayload("vc"))
	for name, by := range map[string]string{"itself": a.ID, "unknown": "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f", "another seller's": foreign.ID} {
		resp := f.Harness.Do(t, http.MethodPost, "/v1/offers/"+a.ID+"/void", f.Token, map[string]any{"superseded_by_id": by})
		if resp.Status != http.StatusUnprocessableEntity {
			t.Errorf("superseded by %s: %d %s", name, resp.Status, resp.Body)
		}
	}
	if got := f.GetOffer(t, a.ID); got.Status != "created" {
		t.Fatalf("refused voids changed the offer: %s", got.Status)
	}
	resp := f.Harness.Do(t, http.MethodPost, "/v1/offers/"+a.ID+"/void", f.Token, map[string]any{"superseded_by_id": b.ID})
	var voided apitest.OfferView
	resp.Decode(t, &voided)
	if resp.Status != http.StatusOK || voided.Status != "voided" || voided.SupersededByID != b.ID {
		t.Errorf("void: %d %s", resp.Status, resp.Body)
	}
}

func TestOffersAreIsolated(t *testing.T) {
	a, b := apitest.NewOfferFixture(t), apitest.NewOfferFixture(t)
	o := a.CreateOffer(t, apitest.OfferPayload("shared-ref"))
	for _, req := range [][2]string{{"GET", "/v1/offers/" + o.ID}, {"GET", "/v1/offers/ref/shared-ref"}, {"POST", "/v1/offers/" + o.ID + "/void"}, {"PUT", "/v1/offers/" + o.ID}} {
		var body any
		if req[0] == "PUT" {
			body = apitest.OfferPayload("x")
		} else if req[0] == "POST" {
			body = map[string]any{}
		}
		// The published contract lists no 404 for editing an offer: an
		// offer the caller cannot see is refused with its 400.
		want := http.StatusNotFound
		if req[0] == "PUT" {
			want = http.StatusBadRequest
		}
		if resp := b.Harness.Do(t, req[0], req[1], b.Token, body); resp.Status != want || !strings.Contains(string(resp.Body), "offer not found") {
			t.Errorf("seller B %s %s: %d %s", req[0], req[1], resp.Status, resp.Body)
		}
	}
	if resp := b.Simulate(t, "mark_offer_voided", map[string]any{"id": o.ID}); resp.Status != http.StatusUnprocessableEntity {
		t.Errorf("seller B voids A's offer by simulation: %d", resp.Status)
	}
	var page struct{ Offers []apitest.OfferView }
	b.Harness.Do(t, http.MethodGet, "/v1/offers/paginated", b.Token, nil).Decode(t, &page)
	if len(page.Offers) != 0 {
		t.Errorf("seller B lists A's offers")
	}
	b.CreateOffer(t, apitest.OfferPayload("shared-ref")) // references are per seller
	if got := a.GetOffer(t, o.ID); got.Status != "created" {
		t.Errorf("seller B changed A's offer: %s", got.Status)
	}
}

func TestOfferExpiresAtExpiresAt(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	expires := time.Now().Add(3 * time.Second).UTC().Truncate(time.Second).Add(time.Second)
	o := f.CreateOffer(t, apitest.OfferPayload("soon", apitest.WithField("expires_at", expires.Format(time.RFC3339))))
	deadline := time.Now().Add(30 * time.Second)
	for f.GetOffer(t, o.ID).Status != "expired" {
		if time.Now().After(deadline) {
			t.Fatal("the offer did not expire")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if time.Now().Before(expires) {
		t.Errorf("expired before expires_at")
	}
	if got := strings.Join(f.EventTypes(t, o.ID), ","); got != "offer.expired" {
		t.Errorf("events %s", got)
	}
}

// Two requests racing on one offer: exactly one wins, nothing is
// half-written.
func TestRacingVoidAndAccept(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	for i := range 5 {
		o := f.CreateOffer(t, apitest.OfferPayload("race-"+string(rune('a'+i))))
		f.MustSimulate(t, "mark_offer_for_review", o.ID)
		var wg sync.WaitGroup
		statuses := make([]int, 2)
		for j, scenario := range []string{"mark_offer_voided", "mark_offer_accepted"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[j] = f.Simulate(t, scenario, map[string]any{"id": o.ID}).Status
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
		final := f.GetOffer(t, o.ID).Status
		var orders int
		_ = f.Harness.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM orders WHERE offer_id = $1", o.ID).Scan(&orders)
		if wins != 1 || (final == "accepted") != (orders == 1) || (final != "accepted" && final != "voided") {
			t.Errorf("round %d: statuses %v, final %s, %d orders", i, statuses, final, orders)
		}
	}
}

func TestOfferLists(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	a := f.CreateOffer(t, apitest.OfferPayload("list-a", apitest.WithField("expires_at", time.Now().Add(96*time.Hour).UTC().Format(time.RFC3339))))
	b := f.CreateOffer(t, apitest.OfferPayload("list-b", apitest.WithField("sales_agent", map[string]any{"name": "Pat Partner", "email": "pat@partner.example", "phone": "1"})))
	resp := f.Harness.Do(t, http.MethodPost, "/v1/offers/partners", f.Token, apitest.OfferPayload("list-c"))
	if resp.Status != http.StatusCreated {
		t.Fatalf("partner offer: %d %s", resp.Status, resp.Body)
	}
	var c apitest.OfferView
	resp.Decode(t, &c)
	f.MustSimulate(t, "mark_offer_for_review", b.ID)

	ids := func(query string) []string {
		t.Helper()
		resp := f.Harness.Do(t, http.MethodGet, "/v1/offers/paginated?"+query, f.Token, nil)
		if resp.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", query, resp.Status, resp.Body)
		}
		var page struct{ Offers []apitest.OfferView }
		resp.Decode(t, &page)
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

	var list []apitest.OfferView
	f.Harness.Do(t, http.MethodGet, "/v1/offers?partners_only=true", f.Token, nil).Decode(t, &list)
	if len(list) != 1 || list[0].ID != c.ID {
		t.Errorf("the deprecated list: %+v", list)
	}
	resp = f.Harness.Do(t, http.MethodGet, "/v1/offers/ref/list-b", f.Token, nil)
	var byRef apitest.OfferView
	resp.Decode(t, &byRef)
	if byRef.ID != b.ID || byRef.Status != "pending_review" {
		t.Errorf("by reference: %+v", byRef)
	}
	for _, q := range []string{"limit=0", "page=-1", "sort_by=price", "sort_order=up", "id_gt=1", "created_at_lt=soon"} {
		if resp := f.Harness.Do(t, http.MethodGet, "/v1/offers/paginated?"+q, f.Token, nil); resp.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", q, resp.Status, resp.Body)
		}
	}
	// The spec caps a page at 100 instead of refusing a larger limit.
	var capped struct {
		Pagination struct {
			PageSize int64 `json:"page_size"`
		} `json:"pagination"`
	}
	resp = f.Harness.Do(t, http.MethodGet, "/v1/offers/paginated?limit=1000", f.Token, nil)
	resp.Decode(t, &capped)
	if resp.Status != http.StatusOK || capped.Pagination.PageSize != 100 {
		t.Errorf("limit=1000: %d %s", resp.Status, resp.Body)
	}
}
