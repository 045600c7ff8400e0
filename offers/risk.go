package offers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/workflows/offer"
)

// RiskRules decide a production offer under review (the company data they
// can require are config.CompanyFields), first match wins: a
// shipping or billing country outside AllowedCountries declines; a
// purchase amount (gross) above MaxAmount declines; missing company data
// or an amount above AutoAcceptAmount leaves the decision to an operator,
// who has ManualDeadline; anything else is accepted.
type RiskRules struct {
	AllowedCountries      []string
	RequiredCompanyFields []string
	AutoAcceptAmount      int64
	MaxAmount             int64
	ManualDeadline        time.Duration
}

// NewRiskRules are the rules of the configuration.
func NewRiskRules(c config.RiskConfig) RiskRules {
	return RiskRules{
		AllowedCountries:      c.AllowedCountries,
		RequiredCompanyFields: c.RequiredCompanyFields,
		AutoAcceptAmount:      c.AutoAcceptAmount,
		MaxAmount:             c.MaxAmount,
		ManualDeadline:        c.ManualReviewDeadline,
	}
}

// Review applies the rules to an offer.
func (r RiskRules) Review(o sellerapi.Offer) offer.ReviewResult {
	decide := func(d offer.Decision, format string, args ...any) offer.ReviewResult {
		return offer.ReviewResult{Decision: d, Reason: fmt.Sprintf(format, args...), ManualDeadline: r.ManualDeadline}
	}
	for _, country := range r.countries(o) {
		if !slices.Contains(r.AllowedCountries, strings.ToUpper(country)) {
			return decide(offer.DecisionDecline, "country %s is not served", country)
		}
	}
	amount := int64(0)
	if o.PricingOverview != nil {
		amount = o.PricingOverview.InsteadOfAmount.Gross
	}
	if amount > r.MaxAmount {
		return decide(offer.DecisionDecline, "the purchase amount %d exceeds the limit %d", amount, r.MaxAmount)
	}
	if missing := r.missingCompanyData(o.Customer.Company); len(missing) > 0 {
		return decide(offer.DecisionManual, "company data missing: %s", strings.Join(missing, ", "))
	}
	if amount > r.AutoAcceptAmount {
		return decide(offer.DecisionManual, "the purchase amount %d needs an operator's decision (above %d)", amount, r.AutoAcceptAmount)
	}
	return decide(offer.DecisionAccept, "within the automatic limits")
}

func (r RiskRules) countries(o sellerapi.Offer) []string {
	var out []string
	if c := o.ShippingAddress.CountryCode; c != "" {
		out = append(out, c)
	}
	if co := o.Customer.Company; co != nil && co.BillingAddress != nil && co.BillingAddress.CountryCode != "" {
		out = append(out, co.BillingAddress.CountryCode)
	}
	return out
}

func (r RiskRules) missingCompanyData(c *sellerapi.Company) []string {
	var company sellerapi.Company
	if c != nil {
		company = *c
	}
	present := map[string]bool{
		"name":            deref(company.Name) != "",
		"vat_number":      deref(company.VatNumber) != "",
		"tax_number":      deref(company.TaxNumber) != "",
		"billing_address": company.BillingAddress != nil,
	}
	var missing []string
	for _, f := range r.RequiredCompanyFields {
		if !present[f] {
			missing = append(missing, f)
		}
	}
	return missing
}
