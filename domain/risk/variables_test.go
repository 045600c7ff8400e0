package risk

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// full is a snapshot with a distinct value in every variable.
var full = Snapshot{
	Version: SnapshotVersion,
	Offer: Offer{
		ID: "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f", TotalNet: 1_000_000, TotalGross: 1_190_000, Currency: "EUR", SalesChannel: "telesales",
		ShippingCountry: "AT", Categories: []string{"Laptops", "hardware"},
		Lines: []Line{{ProductType: "software", PricingCategory: "software", Categories: []string{"Licences"}, Quantity: 3,
			Net: 300_000, Gross: 357_000, ContractType: "rent", Duration: 24}},
	},
	Customer: Customer{Name: "Kunde GmbH", Country: "DE", HasBillingAddress: true, LegalForm: "de_gmbh", VATNumber: "DE123456789",
		TaxNumber: "12/345/67890", RegistrationNumber: "HRB 12345", CompanyAgeMonths: 30},
	Seller:   Seller{ID: "0193c3a8-7c1e-7b3e-9a4e-000000000001", Name: "Shop", Limits: map[string]int64{"max_offer_net": 2_000_000}},
	Exposure: Exposure{OpenNet: 4_000_000, Offers: 2},
}

// conditions hold for full and not for the empty snapshot, one per
// variable (lines' fields through the first line).
var conditions = map[string]string{
	"offer.id":                     `offer.id == "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"`,
	"offer.total_net":              `offer.total_net == 1000000`,
	"offer.total_gross":            `offer.total_gross == 1190000`,
	"offer.currency":               `offer.currency == "EUR"`,
	"offer.sales_channel":          `offer.sales_channel == "telesales"`,
	"offer.shipping_country":       `offer.shipping_country == "AT"`,
	"offer.categories":             `"Laptops" in offer.categories`,
	"offer.lines":                  `size(offer.lines) == 1`,
	"offer.lines.product_type":     `offer.lines.exists(l, l.product_type == "software")`,
	"offer.lines.pricing_category": `offer.lines[0].pricing_category == "software"`,
	"offer.lines.categories":       `offer.lines.exists(l, "Licences" in l.categories)`,
	"offer.lines.quantity":         `offer.lines[0].quantity == 3`,
	"offer.lines.net":              `offer.lines.exists(l, l.net == 300000)`,
	"offer.lines.gross":            `offer.lines[0].gross == 357000`,
	"offer.lines.contract_type":    `offer.lines[0].contract_type == "rent"`,
	"offer.lines.duration":         `offer.lines[0].duration == 24`,
	"customer.name":                `customer.name.startsWith("Kunde")`,
	"customer.country":             `customer.country == "DE"`,
	"customer.has_billing_address": `customer.has_billing_address`,
	"customer.legal_form":          `customer.legal_form == "de_gmbh"`,
	"customer.vat_number":          `customer.vat_number.startsWith("DE")`,
	"customer.tax_number":          `customer.tax_number == "12/345/67890"`,
	"customer.registration_number": `customer.registration_number == "HRB 12345"`,
	"customer.company_age_months":  `customer.company_age_months == 30`,
	"seller.id":                    `seller.id == "0193c3a8-7c1e-7b3e-9a4e-000000000001"`,
	"seller.name":                  `seller.name == "Shop"`,
	"seller.limits":                `"max_offer_net" in seller.limits && seller.limits.max_offer_net == 2000000`,
	"exposure.open_net":            `exposure.open_net + offer.total_net == 5000000`,
	"exposure.offers":              `exposure.offers == 2`,
}

// variablePaths lists every variable and field a condition can name,
// from the snapshot's types: a list of objects lists its elements' fields
// under the list's name.
func variablePaths() []string {
	var paths []string
	var walk func(prefix string, t reflect.Type)
	walk = func(prefix string, t reflect.Type) {
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			path := prefix + "." + name
			paths = append(paths, path)
			elem := f.Type
			if elem.Kind() == reflect.Slice {
				elem = elem.Elem()
			}
			if elem.Kind() == reflect.Struct {
				walk(path, elem)
			}
		}
	}
	for _, v := range variables {
		walk(v.name, v.typ)
	}
	return paths
}

// Every variable is typed, readable in a condition with the value the
// snapshot holds, and documented in the guide.
func TestEveryVariable(t *testing.T) {
	guide, err := os.ReadFile("../../docs/risk-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	paths := variablePaths()
	for _, path := range paths {
		when, ok := conditions[path]
		if !ok {
			t.Errorf("variable %s has no test condition", path)
			continue
		}
		rs := ruleSet(t, "version: v1\nrules:\n  - id: r\n    when: '"+when+"'\n    outcome: decline\n    reason: "+reasonYAML+"\ndefault: {outcome: accept, reason: "+reasonYAML+"}\n")
		if d := rs.Evaluate(full); d.Outcome != Decline || d.Error != "" {
			t.Errorf("%s: %s does not hold for the full snapshot: %+v", path, when, d)
		}
		if d := rs.Evaluate(Snapshot{}); d.Outcome == Decline {
			t.Errorf("%s: %s holds for the empty snapshot", path, when)
		}
		if !strings.Contains(string(guide), "`"+path+"`") {
			t.Errorf("docs/risk-rules.md does not document `%s`", path)
		}
	}
	for path := range conditions {
		if !slices.Contains(paths, path) {
			t.Errorf("the test names %s, which is no variable", path)
		}
	}
}

// The guide's rule sets load, and so do its rules when put in one.
func TestTheGuidesRulesLoad(t *testing.T) {
	guide, err := os.ReadFile("../../docs/risk-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(guide), "```yaml\n")[1:]
	if len(blocks) < 4 {
		t.Fatalf("the guide has %d YAML examples", len(blocks))
	}
	for _, block := range blocks {
		example, _, _ := strings.Cut(block, "```")
		switch {
		case strings.HasPrefix(example, "version:"):
		case strings.HasPrefix(example, "  - id:"):
			example = "version: v1\nrules:\n" + example + "default: {outcome: accept, reason: " + reasonYAML + "}\n"
		default:
			continue // a configuration example
		}
		if _, err := ParseRuleSet("docs/risk-rules.md", []byte(example)); err != nil {
			t.Errorf("a rule set of the guide does not load: %v\n%s", err, example)
		}
	}
}
