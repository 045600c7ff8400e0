package config

import (
	"regexp"
	"slices"
	"strings"
	"time"
)

// RiskConfig is the production risk review of offers under review: see
// offers.RiskRules for how the rules apply.
type RiskConfig struct {
	AllowedCountries      []string      `mapstructure:"allowed_countries"`
	RequiredCompanyFields []string      `mapstructure:"required_company_fields"`
	AutoAcceptAmount      int64         `mapstructure:"auto_accept_amount"`
	MaxAmount             int64         `mapstructure:"max_amount"`
	ManualReviewDeadline  time.Duration `mapstructure:"manual_review_deadline"`
}

// CompanyFields are the company data the risk rules can require.
var CompanyFields = []string{"name", "vat_number", "tax_number", "billing_address"}

var riskDefaults = map[string]any{
	"risk.allowed_countries":       []string{"AT", "BE", "CH", "DE", "ES", "FR", "IT", "LU", "NL"},
	"risk.required_company_fields": []string{"name"},
	"risk.auto_accept_amount":      2500000,
	"risk.max_amount":              25000000,
	"risk.manual_review_deadline":  "72h",
}

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

func (c *Config) validateRisk(bad func(key, format string, args ...any)) {
	r := c.Risk
	if len(r.AllowedCountries) == 0 {
		bad("risk.allowed_countries", "must list at least one ISO 3166-1 alpha-2 code such as DE")
	}
	for _, country := range r.AllowedCountries {
		if !countryCode.MatchString(country) {
			bad("risk.allowed_countries", "%q is not an upper-case ISO 3166-1 alpha-2 code such as DE", country)
		}
	}
	for _, f := range r.RequiredCompanyFields {
		if !slices.Contains(CompanyFields, f) {
			bad("risk.required_company_fields", "%q is not one of %s", f, strings.Join(CompanyFields, ", "))
		}
	}
	if r.AutoAcceptAmount < 0 {
		bad("risk.auto_accept_amount", "must not be negative, got %d", r.AutoAcceptAmount)
	}
	if r.MaxAmount < r.AutoAcceptAmount {
		bad("risk.max_amount", "must be at least risk.auto_accept_amount (%d), got %d", r.AutoAcceptAmount, r.MaxAmount)
	}
	if r.ManualReviewDeadline < time.Minute {
		bad("risk.manual_review_deadline", "must be at least 1m, got %s", r.ManualReviewDeadline)
	}
}
