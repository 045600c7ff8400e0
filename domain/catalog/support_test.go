package catalog

import (
	"strings"
	"testing"
)

func rules() Rules {
	return Rules{
		SupportedTypes:    []string{"hardware", "hardware_built_to_order"},
		ReviewTypes:       []string{"software"},
		MinNetPrice:       5000,
		MaxNetPrice:       1000000,
		DeniedCategories:  []string{"weapons"},
		AllowedCategories: nil,
	}
}

func product(t *testing.T, tune func(*ProductInput)) Product {
	t.Helper()
	in := validInput()
	tune(&in)
	p, rej := Validate(in, "EUR")
	if rej != nil {
		t.Fatal(rej)
	}
	return p
}

func TestRulesCategorize(t *testing.T) {
	cases := []struct {
		name   string
		rules  func(*Rules)
		tune   func(*ProductInput)
		status Status
		reason string
	}{
		{"supported hardware", nil, func(*ProductInput) {}, Supported, ""},
		{"denied category by name", nil, func(p *ProductInput) { p.Categories = []Category{{ID: "7", Name: "Weapons"}} }, Unsupported, `category "weapons"`},
		{"too cheap", nil, func(p *ProductInput) { p.Price.Net, p.Price.Gross = 4999, 5949 }, Unsupported, "below the minimum of 5000"},
		{"no type", nil, func(p *ProductInput) { p.Type = "" }, ToBeReviewed, "no seller_product_type"},
		{"review type", nil, func(p *ProductInput) { p.Type = "software" }, ToBeReviewed, "type software are reviewed"},
		{"unlisted type", nil, func(p *ProductInput) { p.Type = "service" }, Unsupported, "type service are not financed"},
		{"outside allowed categories", func(r *Rules) { r.AllowedCategories = []string{"monitors"} }, func(*ProductInput) {}, ToBeReviewed, "none of the categories"},
		{"inside allowed categories by id", func(r *Rules) { r.AllowedCategories = []string{"MON"} }, func(p *ProductInput) { p.Categories = []Category{{ID: "mon", Name: "Monitors"}} }, Supported, ""},
		{"too dear", nil, func(p *ProductInput) { p.Price.Net, p.Price.Gross = 1000001, 1190002 }, ToBeReviewed, "above 1000000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rules()
			if tc.rules != nil {
				tc.rules(&r)
			}
			v := r.Categorize(product(t, tc.tune))
			if v.Status != tc.status || !strings.Contains(v.Reason, tc.reason) {
				t.Errorf("got %+v, want %s ~ %q", v, tc.status, tc.reason)
			}
		})
	}
}

func TestPricingCategory(t *testing.T) {
	p := Policy{DefaultPricingCategory: "hardware"}
	if got := p.PricingCategory(product(t, func(in *ProductInput) { in.Type = "software" })); got != "software" {
		t.Errorf("the product type is the pricing category, got %s", got)
	}
	if got := p.PricingCategory(product(t, func(in *ProductInput) { in.Type = "" })); got != "hardware" {
		t.Errorf("no type: the default category, got %s", got)
	}
}
