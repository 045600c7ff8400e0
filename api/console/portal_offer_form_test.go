package console

import (
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
)

// An agent types prices as their language writes them; each reads back
// as the cents it says, and what is no amount is refused.
func TestAgentsTypePricesInTheirLanguage(t *testing.T) {
	for in, want := range map[string]int64{
		"5000": 500000, "5000,00": 500000, "5.000,00": 500000, "5,000.00": 500000, "49,9": 4990, "0.5": 50, "1 299,00 €": 129900,
	} {
		if got, ok := parseAmount(in); !ok || got != want {
			t.Errorf("parseAmount(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "abc", "-5", "1,2,3x", "12.345.678.901.234"} {
		if got, ok := parseAmount(in); ok {
			t.Errorf("parseAmount(%q) = %d, want it refused", in, got)
		}
	}
	for _, lang := range []pricing.Language{pricing.English, pricing.German, pricing.Dutch} {
		if got, _ := parseAmount(amountText(lang, 123456)); got != 123456 {
			t.Errorf("%s: the builder's own price text %q reads back as %d", lang, amountText(lang, 123456), got)
		}
	}
}

// The builder's payload is refused where POST /v1/offers refuses it, each
// problem beside the form's field in the page's language; the refusals
// of the offer's rules stand beside the line or field they are about.
func TestOfferFormProblemsStandBesideTheirFields(t *testing.T) {
	p, err := loadPages()
	if err != nil {
		t.Fatal(err)
	}
	v := view{Lang: pricing.German, catalog: p.catalogs[pricing.German]}
	f := offerForm{Values: map[string]string{
		"company": "AB", "email": "kein-e-mail", "full_name": "Erika Mustermann", "agent_name": "Agent", "reference": "portal-1",
		"channel": "in_store_pos", "valid_days": "7", "billing_city": "Berlin",
	}, Lines: []formLine{
		{Source: "sku", Reference: "server", Title: "Server", Quantity: "0", Price: "5000,00", Currency: "EUR"},
		{Source: "sku", Reference: "mouse", Title: "Maus", Quantity: "zwei", Price: "fünf", Currency: "EUR"},
	}}
	payload, unread := f.payload(console.User{Email: "agent@example.com"}, time.Now())
	if unread[lineField("quantity", 1)] == "" || unread[lineField("price", 1)] == "" || unread["email"] == "" || len(unread) != 3 {
		t.Errorf("the unreadable fields are %v, want the e-mail address and the second line's quantity and price", unread)
	}
	f.Values["email"] = "erika@kunde.example"
	payload, _ = f.payload(console.User{Email: "agent@example.com"}, time.Now())
	messages, err := checkSellerBody("createOffer", payload)
	if err != nil {
		t.Fatal(err)
	}
	problems := fieldProblems{}
	for _, m := range messages {
		problems.add(v, m)
	}
	for field, want := range map[string]string{
		"company":             "Geben Sie mindestens 3 Zeichen ein.",
		"line_quantity_0":     "Geben Sie mindestens 1 ein.",
		"billing_line1":       "Pflichtfeld.",
		"billing_country":     "Pflichtfeld.",
		"billing_postal_code": "Pflichtfeld.",
	} {
		if got := problems[field]; len(got) < len(want) || got[:len(want)] != want {
			t.Errorf("beside %s: %q, want %q (all: %v)", field, got, want, problems)
		}
	}
	if _, general := problems[""]; general {
		t.Errorf("a problem stands beside no field: %v", problems)
	}

	rules := fieldProblems{}
	rules.refused(v, &refusal.Error{Kind: refusal.ProductsNotSupported, References: []catalog.Reference{{Source: "sku", Reference: "mouse"}}}, f)
	rules.refused(v, &refusal.Error{Kind: refusal.DuplicateSellerOfferReference}, f)
	if rules["line_1"] != "Dieses Produkt kann nicht finanziert werden." || rules["reference"] == "" || len(rules) != 2 {
		t.Errorf("the rules' refusals stand at %v", rules)
	}
}
