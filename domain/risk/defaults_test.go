package risk

import (
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
)

// settings are the risk.* defaults of config.
func settings() config.RiskConfig {
	return config.RiskConfig{
		AllowedCountries:      []string{"AT", "BE", "CH", "DE", "ES", "FR", "IT", "LU", "NL"},
		RequiredCompanyFields: []string{"name"},
		AutoAcceptAmount:      2_500_000,
		MaxAmount:             25_000_000,
		ManualReviewDeadline:  72 * time.Hour,
	}
}

// document is an offer of a purchase amount (gross; none when negative)
// shipped and billed to the countries ("" for no address), for a company
// of that name ("" for none).
func document(gross int64, shipping, billing, name string) offers.Document {
	d := offers.Document{Customer: offers.Customer{Company: &offers.Company{}}}
	if gross >= 0 {
		d.Pricing = &offers.Pricing{InsteadOf: pricing.Money{Currency: "EUR", Net: gross * 100 / 119, Gross: gross}}
	}
	if shipping != "" {
		d.ShippingAddress = &offers.Address{CountryCode: shipping}
	}
	if billing != "" {
		d.Customer.Company.BillingAddress = &offers.Address{CountryCode: billing}
	}
	if name != "" {
		d.Customer.Company.Name = &name
	}
	return d
}

// The default rule set decides as the five settings did: countries
// (shipping, then billing; case-insensitive; absent ones not checked),
// then the maximum, then the required company data, then the automatic
// limit, each bound inclusive; the first that applies decides.
func TestDefaultRuleSetDecidesAsTheFiveSettings(t *testing.T) {
	withFields := func(fields ...string) config.RiskConfig {
		c := settings()
		c.RequiredCompanyFields = fields
		return c
	}
	vat := document(100_000, "DE", "", "Kunde GmbH")
	vat.Customer.Company.VATNumber = new("DE123")
	vatAndBilling := document(100_000, "DE", "DE", "Kunde GmbH")
	vatAndBilling.Customer.Company.VATNumber = new("DE123")
	cases := []struct {
		name     string
		settings config.RiskConfig
		doc      offers.Document
		outcome  Outcome
		reason   string
	}{
		{"served and small", settings(), document(100_000, "DE", "AT", "Kunde GmbH"), Accept, "within_limits"},
		{"shipping abroad", settings(), document(100_000, "US", "DE", "Kunde GmbH"), Decline, "country_not_served"},
		{"billing abroad", settings(), document(100_000, "DE", "US", "Kunde GmbH"), Decline, "country_not_served"},
		{"lower-case country", settings(), document(100_000, "de", "nl", "Kunde GmbH"), Accept, "within_limits"},
		{"no addresses", settings(), document(100_000, "", "", "Kunde GmbH"), Accept, "within_limits"},
		{"at the maximum", settings(), document(25_000_000, "DE", "", "Kunde GmbH"), Manual, "amount_needs_review"},
		{"above the maximum", settings(), document(25_000_001, "DE", "", "Kunde GmbH"), Decline, "amount_above_maximum"},
		{"abroad and above the maximum", settings(), document(25_000_001, "US", "", "Kunde GmbH"), Decline, "country_not_served"},
		{"no name", settings(), document(100, "DE", "", ""), Manual, "company_data_missing"},
		{"no name above the maximum", settings(), document(25_000_001, "DE", "", ""), Decline, "amount_above_maximum"},
		{"no company at all", settings(), offers.Document{}, Manual, "company_data_missing"},
		{"at the automatic limit", settings(), document(2_500_000, "DE", "", "Kunde GmbH"), Accept, "within_limits"},
		{"above the automatic limit", settings(), document(2_500_001, "DE", "", "Kunde GmbH"), Manual, "amount_needs_review"},
		{"not priced", settings(), document(-1, "DE", "", "Kunde GmbH"), Accept, "within_limits"},
		{"no fields required", withFields(), document(100, "DE", "", ""), Accept, "within_limits"},
		{"vat required, missing", withFields("vat_number", "billing_address"), document(100_000, "DE", "DE", "Kunde GmbH"), Manual, "company_data_missing"},
		{"billing required, missing", withFields("vat_number", "billing_address"), vat, Manual, "company_data_missing"},
		{"vat and billing given", withFields("vat_number", "billing_address"), vatAndBilling, Accept, "within_limits"},
		{"tax number required", withFields("tax_number"), document(100_000, "DE", "", "Kunde GmbH"), Manual, "company_data_missing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := DefaultRuleSet(tc.settings)
			if err != nil {
				t.Fatal(err)
			}
			snap, err := OfferSnapshot(offers.Stored{Document: tc.doc}, Facts{})
			if err != nil {
				t.Fatal(err)
			}
			d := rs.Evaluate(snap)
			if d.Outcome != tc.outcome || d.Reason.Code != tc.reason || d.Error != "" {
				t.Errorf("decided %+v, want %s (%s)", d, tc.outcome, tc.reason)
			}
		})
	}
}

// The default rule set's version names its settings: the same settings
// give the same version, other settings another.
func TestDefaultRuleSetVersion(t *testing.T) {
	a, err := DefaultRuleSet(settings())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := DefaultRuleSet(settings())
	other := settings()
	other.MaxAmount++
	c, _ := DefaultRuleSet(other)
	if a.Version != b.Version || a.Version == c.Version || len(a.Version) != len("default-")+12 {
		t.Errorf("versions %s, %s, %s", a.Version, b.Version, c.Version)
	}
}
