package config

import (
	"regexp"
	"slices"
	"strings"
	"time"
)

// RiskConfig is the production risk review of offers under review (package
// risk). The first four settings make the default rule set, which decides
// unless RulesFile names a rule set of the deployment's own.
type RiskConfig struct {
	AllowedCountries      []string      `mapstructure:"allowed_countries"`
	RequiredCompanyFields []string      `mapstructure:"required_company_fields"`
	AutoAcceptAmount      int64         `mapstructure:"auto_accept_amount"`
	MaxAmount             int64         `mapstructure:"max_amount"`
	ManualReviewDeadline  time.Duration `mapstructure:"manual_review_deadline"`
	// RulesFile is the live rule set's YAML file; empty for the default.
	RulesFile string `mapstructure:"rules_file"`
	// ShadowRulesFile is a candidate rule set evaluated beside the live
	// one on every decision, logged and never acted on; empty for none.
	ShadowRulesFile string `mapstructure:"shadow_rules_file"`
	// ReloadInterval is how often a worker reads the rule files again; a
	// changed file that compiles replaces its set, one that does not is
	// logged and the previous set stays. 0 never reloads.
	ReloadInterval time.Duration `mapstructure:"reload_interval"`
}

// CompanyFields are the company data the risk rules can require.
var CompanyFields = []string{"name", "vat_number", "tax_number", "billing_address"}

var riskDefaults = map[string]any{
	"risk.allowed_countries":       []string{"AT", "BE", "CH", "DE", "ES", "FR", "IT", "LU", "NL"},
	"risk.required_company_fields": []string{"name"},
	"risk.auto_accept_amount":      2500000,
	"risk.max_amount":              25000000,
	"risk.manual_review_deadline":  "72h",
	"risk.rules_file":              "",
	"risk.shadow_rules_file":       "",
	"risk.reload_interval":         "30s",
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
	if r.ReloadInterval != 0 && r.ReloadInterval < time.Second {
		bad("risk.reload_interval", "must be 0 (never reload) or at least 1s, got %s", r.ReloadInterval)
	}
}
