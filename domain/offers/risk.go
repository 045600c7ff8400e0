package offers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/foundation/optional"
)

// Review says how an offer in pending_review gets its decision.
type Review string

const (
	// ReviewBySimulation waits for the sandbox's scenario simulations.
	ReviewBySimulation Review = "simulation"
	// ReviewByRules runs the production risk rules, then waits for an
	// operator when they cannot decide.
	ReviewByRules Review = "rules"
)

// ReviewOf is how offers are reviewed in an environment.
func ReviewOf(env config.Environment) Review {
	if env == config.Sandbox {
		return ReviewBySimulation
	}
	return ReviewByRules
}

// Decision is the outcome of the risk rules.
type Decision string

const (
	// DecisionAccept accepts the offer.
	DecisionAccept Decision = "accept"
	// DecisionDecline declines the offer.
	DecisionDecline Decision = "decline"
	// DecisionManual leaves the offer to an operator.
	DecisionManual Decision = "manual"
)

// ReviewResult is the risk rules' decision and why.
type ReviewResult struct {
	Decision Decision
	Reason   string
	// ManualDeadline is how long an operator has to decide.
	ManualDeadline time.Duration
}

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
func (r RiskRules) Review(o Document) ReviewResult {
	decide := func(d Decision, format string, args ...any) ReviewResult {
		return ReviewResult{Decision: d, Reason: fmt.Sprintf(format, args...), ManualDeadline: r.ManualDeadline}
	}
	for _, country := range r.countries(o) {
		if !slices.Contains(r.AllowedCountries, strings.ToUpper(country)) {
			return decide(DecisionDecline, "country %s is not served", country)
		}
	}
	amount := int64(0)
	if o.Pricing != nil {
		amount = o.Pricing.InsteadOf.Gross
	}
	if amount > r.MaxAmount {
		return decide(DecisionDecline, "the purchase amount %d exceeds the limit %d", amount, r.MaxAmount)
	}
	if missing := r.missingCompanyData(o.Customer.Company); len(missing) > 0 {
		return decide(DecisionManual, "company data missing: %s", strings.Join(missing, ", "))
	}
	if amount > r.AutoAcceptAmount {
		return decide(DecisionManual, "the purchase amount %d needs an operator's decision (above %d)", amount, r.AutoAcceptAmount)
	}
	return decide(DecisionAccept, "within the automatic limits")
}

func (r RiskRules) countries(o Document) []string {
	var out []string
	if a := o.ShippingAddress; a != nil && a.CountryCode != "" {
		out = append(out, a.CountryCode)
	}
	if co := o.Customer.Company; co != nil && co.BillingAddress != nil && co.BillingAddress.CountryCode != "" {
		out = append(out, co.BillingAddress.CountryCode)
	}
	return out
}

func (r RiskRules) missingCompanyData(c *Company) []string {
	company := optional.Value(c)
	present := map[string]bool{
		"name":            optional.Value(company.Name) != "",
		"vat_number":      optional.Value(company.VATNumber) != "",
		"tax_number":      optional.Value(company.TaxNumber) != "",
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

// RiskReason explains a risk decision: a stable code and a text in each
// language Tenure speaks (package risk's Reason).
type RiskReason struct {
	Code string `json:"code"`
	EN   string `json:"en"`
	DE   string `json:"de"`
	NL   string `json:"nl"`
}

// RiskReview is the production risk rules' decision on an offer as the
// offer's document keeps it, for the views that tell the seller (the
// decision log, package risk, keeps the rule and what it saw).
type RiskReview struct {
	Outcome        Decision   `json:"outcome"`
	Reason         RiskReason `json:"reason"`
	RuleSetVersion string     `json:"rule_set_version"`
	DecidedAt      time.Time  `json:"decided_at"`
}
