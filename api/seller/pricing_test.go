package seller_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/internal/testing/apitest"
)

// pricingCatalog imports the products the pricing tests price (default
// rates: hardware 9.50 / 5.00 / 3.50 %, software 10.00 / 5.40 / 3.80 % per
// month for 12 / 24 / 36 months; no rent below 100.00 net).
func pricingCatalog(t *testing.T, h *apitest.Harness, sellerID uuid.UUID, token string) {
	t.Helper()
	h.ImportProducts(t, token,
		apitest.ProductJSON("sku", "mon", "Monitor", 54538, apitest.WithField("price", map[string]any{"currency": "EUR", "net": 54538, "gross": 64900, "tax_rate": 1900})),
		apitest.ProductJSON("sku", "sw", "Licence", 100000, apitest.WithField("seller_product_type", "software")),
		apitest.ProductJSON("sku", "cheap", "Cable", 5000),
		apitest.ProductJSON("sku", "inactive", "Old monitor", 54538, apitest.WithField("is_active", false)),
		apitest.ProductJSON("sku", "archived", "Archived monitor", 54538),
		apitest.ProductJSON("sku", "unsupported", "Unsupported monitor", 54538),
	)
	// No operation archives products yet; the column is set directly.
	if _, err := h.Store.Pool.Exec(t.Context(), "UPDATE products SET archived = true WHERE seller_id = $1 AND title = 'Archived monitor'", sellerID); err != nil {
		t.Fatal(err)
	}
	resp := h.Do(t, http.MethodPost, "/v1/scenario_simulations/mark_product_unsupported", token, map[string]any{
		"scenario_input": map[string]any{"ids": []string{productID(t, h, sellerID, "sku", "unsupported")}},
	})
	if resp.Status != http.StatusOK {
		t.Fatalf("marking unsupported: %d %s", resp.Status, resp.Body)
	}
}

// post sends a JSON body with an Accept-Language header.
func post(t *testing.T, h *apitest.Harness, target, token, acceptLanguage string, body any) apitest.Response {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, target, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	if acceptLanguage != "" {
		req.Header.Set("Accept-Language", acceptLanguage)
	}
	return h.Send(t, req)
}

type rentTerm struct {
	Duration int           `json:"duration"`
	ID       string        `json:"id"`
	Monthly  apitest.Money `json:"monthly_amount"`
}

type recommended struct {
	Reference      apitest.Pair `json:"seller_product_reference"`
	HasRentalTerms bool         `json:"has_rental_terms"`
	Currency       string       `json:"currency"`
	Amount         *int64       `json:"monthly_rental_amount"`
	Terms          *rentTerm    `json:"monthly_rental_terms"`
	Summary        string       `json:"summary"`
}

func item(reference string, extra ...func(map[string]any)) map[string]any {
	it := map[string]any{"seller_product_reference": apitest.Ref("sku", reference)}
	for _, f := range extra {
		f(it)
	}
	return it
}

func eur(net, gross, tax int64) apitest.Money {
	return apitest.Money{Currency: "EUR", Net: net, Gross: gross, TaxRate: tax}
}

func TestRecommendedRentalPrices(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	pricingCatalog(t, h, s.Seller.ID, token)

	resp := post(t, h, "/v1/catalog/list-recommended-rental-prices", token, "fr-CH, de-DE;q=0.9, en;q=0.5", map[string]any{"pricing_requests": []any{
		item("mon"),
		item("sw", apitest.WithField("price", map[string]any{"currency": "EUR", "net": 200000, "gross": 238000})),
		item("cheap"), item("nope"), item("inactive"), item("archived"), item("unsupported"),
	}})
	if resp.Status != http.StatusOK {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var got []recommended
	resp.Decode(t, &got)
	if len(got) != 7 {
		t.Fatalf("one entry per request: %+v", got)
	}
	// 545.38 × 3.50 % = 19.0883 → 19.09 net; × 1.19 = 22.7171 → 22.72 gross.
	mon := got[0]
	if !mon.HasRentalTerms || mon.Currency != "EUR" || mon.Amount == nil || *mon.Amount != 1909 || mon.Reference != (apitest.Pair{Source: "sku", Reference: "mon"}) ||
		mon.Terms == nil || *mon.Terms != (rentTerm{36, "rent-36", eur(1909, 2272, 1900)}) || mon.Summary != "Mieten ab 19,09 €/Monat (zzgl. MwSt.)" {
		t.Errorf("monitor: %+v %+v", mon, mon.Terms)
	}
	// The request's price overrides the catalog's: 2,000.00 × 3.80 %.
	if sw := got[1]; !sw.HasRentalTerms || *sw.Amount != 7600 || sw.Terms.Monthly != eur(7600, 9044, 1900) {
		t.Errorf("licence with its price overridden: %+v %+v", sw, sw.Terms)
	}
	if cheap := got[2]; cheap.HasRentalTerms || cheap.Amount != nil || cheap.Terms != nil || cheap.Summary != "Nur zum Kauf, nicht zur Miete verfügbar" {
		t.Errorf("pay-now-only product: %+v", cheap)
	}
	for _, r := range got[3:] {
		if r.HasRentalTerms || r.Amount != nil || r.Summary != "Nicht finanzierbar" {
			t.Errorf("%s cannot be financed: %+v", r.Reference.Reference, r)
		}
	}

	for header, want := range map[string]string{"nl": "Huren vanaf € 19,09/maand (excl. btw)", "": "Rent from €19.09/month (excl. VAT)", "it, es;q=0.5": "Rent from €19.09/month (excl. VAT)"} {
		var one []recommended
		post(t, h, "/v1/catalog/list-recommended-rental-prices", token, header, map[string]any{"pricing_requests": []any{item("mon")}}).Decode(t, &one)
		if one[0].Summary != want {
			t.Errorf("Accept-Language %q: %q, want %q", header, one[0].Summary, want)
		}
	}
}

func TestPricingRefusesMalformedPrices(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	pricingCatalog(t, h, s.Seller.ID, token)
	withPrice := func(p map[string]any) func(map[string]any) { return apitest.WithField("price", p) }
	cases := []struct {
		name   string
		target string
		body   any
		status int
		want   string
	}{
		{"gross below net", "/v1/catalog/list-recommended-rental-prices", map[string]any{"pricing_requests": []any{item("mon"), item("sw", withPrice(map[string]any{"currency": "EUR", "net": 100, "gross": 90}))}}, 400, "pricing_requests[1].price.gross (90) must not be below pricing_requests[1].price.net (100)"},
		{"zero net", "/v1/catalog/list-recommended-rental-prices", map[string]any{"pricing_requests": []any{item("mon", apitest.WithField("base_rental_price", map[string]any{"currency": "EUR", "net": 0, "gross": 0}))}}, 400, "pricing_requests[0].base_rental_price.net must be positive"},
		{"other currency", "/v1/catalog/carts/rental-overview", map[string]any{"products": []any{item("mon", apitest.WithField("quantity", 1), withPrice(map[string]any{"currency": "USD", "net": 100, "gross": 119}))}}, 400, "products[0].price.currency must be the seller's currency EUR"},
		{"negative tax rate", "/v1/catalog/pricing", map[string]any{"pricing_request": item("mon", withPrice(map[string]any{"currency": "EUR", "net": 100, "gross": 119, "tax_rate": -1}))}, 400, "pricing_request.price.tax_rate"},
		{"zero quantity", "/v1/catalog/carts/rental-overview", map[string]any{"products": []any{item("mon", apitest.WithField("quantity", 0))}}, 400, "products[0].quantity must be between 1 and 10000"},
		{"subline price", "/v1/catalog/basket/pricing", map[string]any{"pricing_requests": []any{item("mon", apitest.WithField("quantity", 1), apitest.WithField("sublines", []any{item("sw", withPrice(map[string]any{"currency": "EUR", "net": -1, "gross": 1}))}))}}, 400, "pricing_requests[0].sublines[0].price.net must be positive"},
		{"wrong type", "/v1/catalog/list-recommended-rental-prices", map[string]any{"pricing_requests": []any{item("mon", withPrice(map[string]any{"currency": "EUR", "net": "1", "gross": 1}))}}, 400, "pricing_requests[0].price.net"},
		{"missing reference", "/v1/catalog/list-recommended-rental-prices", map[string]any{"pricing_requests": []any{map[string]any{}}}, 400, "seller_product_reference"},
		{"empty reference", "/v1/catalog/check-supported", map[string]any{"seller_product_references": []any{apitest.Ref("sku", "")}}, 400, "seller_product_references[0].reference"},
		{"malformed json", "/v1/catalog/carts/rental-overview", `{"products": [{]}`, 400, "not valid JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := h.Do(t, http.MethodPost, tc.target, token, tc.body)
			if resp.Status != tc.status {
				t.Fatalf("got %d %s", resp.Status, resp.Body)
			}
			if e := resp.APIError(t); !strings.Contains(e["message"].(string), tc.want) {
				t.Errorf("the message does not name %q: %v", tc.want, e["message"])
			}
		})
	}
	many := make([]any, 1001)
	for i := range many {
		many[i] = item(fmt.Sprint(i))
	}
	resp := h.Do(t, http.MethodPost, "/v1/catalog/list-recommended-rental-prices", token, map[string]any{"pricing_requests": many})
	if resp.Status != http.StatusRequestEntityTooLarge || resp.APIError(t)["name"] != "TooManyProducts" {
		t.Errorf("1001 products: %d %s", resp.Status, resp.Body)
	}
}

type cartEntry struct {
	Reference      apitest.Pair `json:"seller_product_reference"`
	Quantity       int64        `json:"quantity"`
	CanCheckout    bool         `json:"can_checkout"`
	HasRentalTerms bool         `json:"has_rental_terms"`
	Currency       string       `json:"currency"`
	Terms          []rentTerm   `json:"available_rental_terms"`
	Total          *int64       `json:"total_rental_amount"`
	Summary        string       `json:"summary"`
}

type cartOverview struct {
	CanCheckout  bool        `json:"can_checkout"`
	Currency     string      `json:"currency"`
	Entries      []cartEntry `json:"product_prices"`
	Total        *int64      `json:"total_rental_amount"`
	TotalSummary string      `json:"total_rental_summary"`
}

func cart(t *testing.T, h *apitest.Harness, token string, entries ...map[string]any) cartOverview {
	t.Helper()
	resp := h.Do(t, http.MethodPost, "/v1/catalog/carts/rental-overview", token, map[string]any{"products": entries})
	if resp.Status != http.StatusOK {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var c cartOverview
	resp.Decode(t, &c)
	return c
}

func TestCartRentalOverview(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	pricingCatalog(t, h, s.Seller.ID, token)
	qty := func(n int) func(map[string]any) { return apitest.WithField("quantity", n) }

	c := cart(t, h, token, item("mon", qty(2)), item("sw", qty(1)))
	if !c.CanCheckout || c.Currency != "EUR" || len(c.Entries) != 2 {
		t.Fatalf("cart %+v", c)
	}
	mon := c.Entries[0]
	wantTerms := []rentTerm{{12, "rent-12", eur(5181, 6165, 1900)}, {24, "rent-24", eur(2727, 3245, 1900)}, {36, "rent-36", eur(1909, 2272, 1900)}}
	if !mon.CanCheckout || !mon.HasRentalTerms || mon.Quantity != 2 || len(mon.Terms) != 3 || mon.Total == nil || *mon.Total != 3818 {
		t.Errorf("monitor entry %+v", mon)
	}
	for i, want := range wantTerms {
		if i < len(mon.Terms) && mon.Terms[i] != want {
			t.Errorf("term %d: %+v, want %+v", i, mon.Terms[i], want)
		}
	}
	if sw := c.Entries[1]; *sw.Total != 3800 || sw.Summary != "Rent from €38.00/month (excl. VAT)" {
		t.Errorf("licence entry %+v", sw)
	}
	if c.Total == nil || *c.Total != 7618 || c.TotalSummary != "Rent the whole cart from €76.18/month (excl. VAT)" {
		t.Errorf("cart total %v %q", c.Total, c.TotalSummary)
	}

	// A pay-now-only product can be checked out but leaves the cart without a rent total.
	c = cart(t, h, token, item("mon", qty(1)), item("cheap", qty(3)))
	if !c.CanCheckout || c.Total != nil || c.TotalSummary != "Some products in this cart cannot be rented" {
		t.Errorf("with a pay-now-only product: %+v", c)
	}
	if cheap := c.Entries[1]; !cheap.CanCheckout || cheap.HasRentalTerms || cheap.Terms != nil || cheap.Total != nil {
		t.Errorf("pay-now-only entry %+v", cheap)
	}

	// Unknown, inactive, archived and unsupported products: no checkout, no rent, no error.
	for _, r := range []string{"nope", "inactive", "archived", "unsupported"} {
		c = cart(t, h, token, item("mon", qty(1)), item(r, qty(1)))
		if c.CanCheckout || c.Entries[1].CanCheckout || c.Entries[1].HasRentalTerms || c.Total != nil || !c.Entries[0].CanCheckout {
			t.Errorf("%s: %+v", r, c)
		}
	}
}

type payNow struct {
	Amount apitest.Money `json:"amount"`
	ID     string        `json:"id"`
}

type basketLine struct {
	Identifier              string     `json:"identifier"`
	IsSupported             bool       `json:"is_supported"`
	Types                   []string   `json:"available_contract_types"`
	DefaultTenure           int        `json:"default_tenure"`
	PayNow                  *payNow    `json:"pay_now"`
	PayNowExcludingSublines *payNow    `json:"pay_now_excluding_sublines"`
	TotalPayNow             *payNow    `json:"total_pay_now"`
	Rent                    []rentTerm `json:"rent"`
	RentExcludingSublines   []rentTerm `json:"rent_excluding_sublines"`
	TotalRent               []rentTerm `json:"total_rent"`
	Summary                 string     `json:"summary"`
	Sublines                []struct {
		IsSupported bool       `json:"is_supported"`
		Types       []string   `json:"available_contract_types"`
		PayNow      *payNow    `json:"pay_now"`
		TotalPayNow *payNow    `json:"total_pay_now"`
		Rent        []rentTerm `json:"rent"`
		TotalRent   []rentTerm `json:"total_rent"`
	} `json:"sublines"`
}

type basket struct {
	TotalPayNow *apitest.Money `json:"basket_total_pay_now"`
	TotalRent   *apitest.Money `json:"basket_total_rent"`
	Summaries   []basketLine   `json:"summaries"`
}

func TestBasketPricing(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	pricingCatalog(t, h, s.Seller.ID, token)
	entry := func(reference, identifier string, quantity int, sublines ...map[string]any) map[string]any {
		e := item(reference, apitest.WithField("identifier", identifier), apitest.WithField("quantity", quantity))
		if sublines != nil {
			e["sublines"] = sublines
		}
		return e
	}
	price := func(body map[string]any) basket {
		t.Helper()
		resp := h.Do(t, http.MethodPost, "/v1/catalog/basket/pricing", token, body)
		if resp.Status != http.StatusOK {
			t.Fatalf("got %d %s", resp.Status, resp.Body)
		}
		var b basket
		resp.Decode(t, &b)
		return b
	}

	b := price(map[string]any{"pricing_requests": []any{entry("mon", "line-1", 2, item("sw")), entry("cheap", "line-2", 1)}})
	if len(b.Summaries) != 2 {
		t.Fatalf("summaries %+v", b.Summaries)
	}
	l := b.Summaries[0]
	if l.Identifier != "line-1" || !l.IsSupported || strings.Join(l.Types, ",") != "pay_now,rent" || l.DefaultTenure != 36 {
		t.Errorf("line 1: %+v", l)
	}
	if l.PayNow.Amount != eur(154538, 183900, 1900) || l.PayNow.ID != "pay-now" || l.PayNowExcludingSublines.Amount != eur(54538, 64900, 1900) || l.TotalPayNow.Amount != eur(309076, 367800, 1900) {
		t.Errorf("line 1 pay now: %+v %+v %+v", l.PayNow, l.PayNowExcludingSublines, l.TotalPayNow)
	}
	if len(l.Rent) != 3 || l.Rent[2] != (rentTerm{36, "rent-36", eur(5709, 6794, 1900)}) || l.RentExcludingSublines[2].Monthly != eur(1909, 2272, 1900) || l.TotalRent[2].Monthly != eur(11418, 13588, 1900) {
		t.Errorf("line 1 rent: %+v / %+v / %+v", l.Rent, l.RentExcludingSublines, l.TotalRent)
	}
	if len(l.Sublines) != 1 || !l.Sublines[0].IsSupported || l.Sublines[0].PayNow.Amount != eur(100000, 119000, 1900) ||
		l.Sublines[0].TotalPayNow.Amount != eur(200000, 238000, 1900) || l.Sublines[0].Rent[2].Monthly != eur(3800, 4522, 1900) || l.Sublines[0].TotalRent[2].Monthly != eur(7600, 9044, 1900) {
		t.Errorf("subline %+v", l.Sublines)
	}
	if cheap := b.Summaries[1]; !cheap.IsSupported || strings.Join(cheap.Types, ",") != "pay_now" || cheap.Rent != nil || cheap.TotalPayNow.Amount != eur(5000, 5950, 1900) {
		t.Errorf("line 2: %+v", cheap)
	}
	if b.TotalPayNow == nil || *b.TotalPayNow != eur(314076, 373750, 1900) || b.TotalRent != nil {
		t.Errorf("basket totals: %+v %+v", b.TotalPayNow, b.TotalRent)
	}

	b = price(map[string]any{"pricing_requests": []any{entry("mon", "a", 1), entry("sw", "b", 1)}})
	if b.TotalRent == nil || *b.TotalRent != eur(5709, 6794, 1900) {
		t.Errorf("basket rent at the default term: %+v", b.TotalRent)
	}

	// An unknown subline makes its line unfinanceable; the basket has no totals.
	b = price(map[string]any{"pricing_requests": []any{entry("mon", "a", 1, item("nope")), entry("sw", "b", 1)}})
	if l := b.Summaries[0]; l.IsSupported || len(l.Types) != 0 || l.PayNow != nil || l.Summary != "Not available for financing" || l.Sublines[0].IsSupported {
		t.Errorf("line with an unknown subline: %+v", l)
	}
	if b.TotalPayNow != nil || b.TotalRent != nil || !b.Summaries[1].IsSupported {
		t.Errorf("totals with an unfinanceable line: %+v", b)
	}
}

func TestProductPricing(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	token := h.Token(t, s, "client")
	pricingCatalog(t, h, s.Seller.ID, token)
	var got struct {
		IsSupported bool       `json:"is_supported"`
		Types       []string   `json:"available_contract_types"`
		PayNow      *payNow    `json:"pay_now"`
		Rent        []rentTerm `json:"rent"`
		Summary     string     `json:"summary"`
	}
	resp := post(t, h, "/v1/catalog/pricing", token, "nl-NL", map[string]any{"pricing_request": item("mon")})
	if resp.Status != http.StatusOK {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	resp.Decode(t, &got)
	if !got.IsSupported || strings.Join(got.Types, ",") != "pay_now,rent" || got.PayNow.Amount != eur(54538, 64900, 1900) || len(got.Rent) != 3 ||
		got.Rent[0] != (rentTerm{12, "rent-12", eur(5181, 6165, 1900)}) || got.Summary != "Huren vanaf € 19,09/maand (excl. btw)" {
		t.Errorf("got %+v", got)
	}
	for _, r := range []string{"nope", "archived"} {
		got.PayNow, got.Rent = nil, nil
		h.Do(t, http.MethodPost, "/v1/catalog/pricing", token, map[string]any{"pricing_request": item(r)}).Decode(t, &got)
		if got.IsSupported || len(got.Types) != 0 || got.PayNow != nil || got.Rent != nil || got.Summary != "Not available for financing" {
			t.Errorf("%s: %+v", r, got)
		}
	}
}

func TestPricingIsIsolatedBetweenSellers(t *testing.T) {
	h := apitest.New(t)
	a, b := h.Seller(t), h.Seller(t)
	tokenA, tokenB := h.Token(t, a, "client"), h.Token(t, b, "client")
	pricingCatalog(t, h, a.Seller.ID, tokenA)
	var rec []recommended
	h.Do(t, http.MethodPost, "/v1/catalog/list-recommended-rental-prices", tokenB, map[string]any{"pricing_requests": []any{item("mon")}}).Decode(t, &rec)
	if rec[0].HasRentalTerms || rec[0].Amount != nil {
		t.Errorf("seller B prices A's product: %+v", rec[0])
	}
	if c := cart(t, h, tokenB, item("mon", apitest.WithField("quantity", 1))); c.CanCheckout || c.Entries[0].HasRentalTerms {
		t.Errorf("seller B checks out A's product: %+v", c)
	}
	var support struct {
		Products []any `json:"products"`
	}
	h.Do(t, http.MethodPost, "/v1/catalog/check-supported", tokenB, map[string]any{"seller_product_references": []any{apitest.Ref("sku", "mon")}}).Decode(t, &support)
	if len(support.Products) != 0 {
		t.Errorf("seller B sees A's product as known: %+v", support)
	}
}
