package sellers

import (
	"slices"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/foundation/weburl"
)

func TestCheckNamesEveryRefusedValue(t *testing.T) {
	entities := map[string][]string{"tenure": {"DE"}}
	production := weburl.Rule{}
	good := Profile{Name: "Shop GmbH", ProductReferenceSource: "sku", LogoURL: "https://cdn.shop.example/logo.svg",
		Email: "hello@shop.example", Address: Address{CountryCode: "DE", Line2: "Hof"}, ContractualEntity: "tenure",
		TermsDocuments: []TermsDocument{{Type: "return_policy", Language: "de", URL: "https://shop.example/retoure"}}}
	if problems := good.Check(entities, production); len(problems) != 0 {
		t.Errorf("a good profile: %v", problems)
	}
	bad := Profile{Name: "", PrettyName: strings.Repeat("p", 256), ProductReferenceSource: "has space",
		LogoURL: "http://cdn.shop.example/logo.svg", Email: "Shop <hello@shop.example>",
		Address:           Address{CountryCode: "de", Line2: strings.Repeat("l", 41)},
		ContractualEntity: "elsewhere",
		TermsDocuments: []TermsDocument{
			{Type: "Return Policy", Language: "fr", URL: "ftp://shop.example"},
			{Type: "privacy", Language: "en", URL: "https://shop.example/p"},
			{Type: "privacy", Language: "en", URL: "https://shop.example/q"},
		}}
	var fields []string
	for _, p := range bad.Check(entities, production) {
		fields = append(fields, p.Field)
	}
	for _, want := range []string{"name", "pretty_name", "product_reference_source", "logo_url", "email",
		"address.country_code", "address.line2", "contractual_entity", "terms_and_conditions[0].type",
		"terms_and_conditions[0].language", "terms_and_conditions[0].url", "terms_and_conditions[2]"} {
		if !slices.Contains(fields, want) {
			t.Errorf("%s is not named among %v", want, fields)
		}
	}
	if err := bad.Refused(entities, production); err == nil || !strings.Contains(err.Error(), "field logo_url: must use https, not http") {
		t.Errorf("Refused says every problem: %v", err)
	}
	if err := good.Refused(entities, production); err != nil {
		t.Errorf("a good profile is refused: %v", err)
	}
	local := good
	local.LogoURL = "http://localhost:3000/logo.svg"
	local.TermsDocuments = []TermsDocument{{Type: "return_policy", Language: "de", URL: "http://127.0.0.1:3000/retoure"}}
	if problems := local.Check(entities, weburl.Rule{Local: true}); len(problems) != 0 {
		t.Errorf("the sandbox accepts URLs to this machine: %v", problems)
	}
	if problems := local.Check(entities, production); len(problems) != 2 {
		t.Errorf("production refuses the logo and the document on this machine: %v", problems)
	}
}

func TestSwitchesCoverEveryCapability(t *testing.T) {
	var c Capabilities
	for _, on := range c.Switches() {
		*on = true
	}
	if c != (Capabilities{AddCustomProducts: true, AnonymizedPricing: true, AnonymousEcomOfferCreation: true, Bundles: true,
		DualPricing: true, HideBuyNow: true, InternationalShipment: true}) {
		t.Errorf("a capability has no switch: %+v", c)
	}
}
