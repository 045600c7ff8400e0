package risk

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/tenurehq/tenure/config"
)

// companyFieldConditions say, per field risk.required_company_fields may
// name (config.CompanyFields), when the customer lacks it.
var companyFieldConditions = map[string]string{
	"name":            `customer.name == ""`,
	"vat_number":      `customer.vat_number == ""`,
	"tax_number":      `customer.tax_number == ""`,
	"billing_address": `!customer.has_billing_address`,
}

// The reasons of the default rule set.
var (
	countryNotServed = Reason{
		Code: "country_not_served",
		EN:   "The shipping or billing country is not served.",
		DE:   "Das Liefer- oder Rechnungsland wird nicht beliefert.",
		NL:   "Het verzend- of factuurland wordt niet bediend.",
	}
	amountAboveMaximum = Reason{
		Code: "amount_above_maximum",
		EN:   "The purchase amount is above the most we finance.",
		DE:   "Der Kaufbetrag liegt über dem Höchstbetrag, den wir finanzieren.",
		NL:   "Het aankoopbedrag ligt boven het maximum dat wij financieren.",
	}
	companyDataMissing = Reason{
		Code: "company_data_missing",
		EN:   "Company data is missing; an operator reviews the offer.",
		DE:   "Firmendaten fehlen; ein Mitarbeiter prüft das Angebot.",
		NL:   "Bedrijfsgegevens ontbreken; een medewerker beoordeelt de offerte.",
	}
	amountNeedsReview = Reason{
		Code: "amount_needs_review",
		EN:   "The purchase amount needs an operator's review.",
		DE:   "Der Kaufbetrag muss von einem Mitarbeiter geprüft werden.",
		NL:   "Het aankoopbedrag moet door een medewerker worden beoordeeld.",
	}
	withinLimits = Reason{
		Code: "within_limits",
		EN:   "The offer is within the automatic limits.",
		DE:   "Das Angebot liegt innerhalb der automatischen Grenzen.",
		NL:   "De offerte valt binnen de automatische limieten.",
	}
)

// DefaultRuleSource is the rule set the five risk.* settings make, as YAML:
// in order, a shipping or billing country outside risk.allowed_countries
// declines; a purchase amount (gross) above risk.max_amount declines;
// missing risk.required_company_fields go to an operator; an amount above
// risk.auto_accept_amount goes to an operator; anything else is accepted.
// (risk.manual_review_deadline is how long the operator has, not a rule.)
// Its version is "default-" and a digest of its rules, so decisions name
// the settings they were made under.
func DefaultRuleSource(c config.RiskConfig) []byte {
	var b strings.Builder
	countries := make([]string, len(c.AllowedCountries))
	for i, country := range c.AllowedCountries {
		countries[i] = strconv.Quote(country)
	}
	served := "[" + strings.Join(countries, ", ") + "]"
	b.WriteString("rules:\n")
	writeRule(&b, "country-not-served",
		fmt.Sprintf(`(offer.shipping_country != "" && !(offer.shipping_country in %s)) || (customer.country != "" && !(customer.country in %s))`, served, served),
		Decline, countryNotServed)
	writeRule(&b, "amount-above-maximum", fmt.Sprintf("offer.total_gross > %d", c.MaxAmount), Decline, amountAboveMaximum)
	if len(c.RequiredCompanyFields) > 0 {
		missing := make([]string, len(c.RequiredCompanyFields))
		for i, f := range c.RequiredCompanyFields {
			missing[i] = companyFieldConditions[f]
		}
		writeRule(&b, "company-data-missing", strings.Join(missing, " || "), Manual, companyDataMissing)
	}
	writeRule(&b, "amount-needs-review", fmt.Sprintf("offer.total_gross > %d", c.AutoAcceptAmount), Manual, amountNeedsReview)
	b.WriteString("default:\n  outcome: accept\n")
	writeReason(&b, "  ", withinLimits)
	digest := sha256.Sum256([]byte(b.String()))
	header := "# The default rule set, generated from the risk.* settings.\nversion: default-" + hex.EncodeToString(digest[:6]) + "\n"
	return []byte(header + b.String())
}

// DefaultRuleSet is DefaultRuleSource compiled.
func DefaultRuleSet(c config.RiskConfig) (*RuleSet, error) {
	return ParseRuleSet("the default rule set (risk.* settings)", DefaultRuleSource(c))
}

func writeRule(b *strings.Builder, id, when string, outcome Outcome, reason Reason) {
	// Single-quoted, so the condition's own quotes stay as written.
	fmt.Fprintf(b, "  - id: %s\n    when: '%s'\n    outcome: %s\n", id, strings.ReplaceAll(when, "'", "''"), outcome)
	writeReason(b, "    ", reason)
}

func writeReason(b *strings.Builder, indent string, r Reason) {
	fmt.Fprintf(b, "%sreason:\n%s  code: %s\n%s  en: %s\n%s  de: %s\n%s  nl: %s\n",
		indent, indent, r.Code, indent, strconv.Quote(r.EN), indent, strconv.Quote(r.DE), indent, strconv.Quote(r.NL))
}
