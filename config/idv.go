package config

import (
	"slices"
	"time"

	"github.com/tenurehq/tenure/domain/endcustomer"
)

// IDVConfig configures identity verification: when an end customer's
// identity must be verified before an offer can be accepted (see
// checkout.IDVRules), and the provider that verifies it.
type IDVConfig struct {
	// AmountThreshold: offers whose purchase amount (gross minor units)
	// is above it need a verification.
	AmountThreshold int64 `mapstructure:"amount_threshold"`
	// LegalForms always need a verification (codes of checkout.LegalForms).
	LegalForms []string          `mapstructure:"legal_forms"`
	Provider   IDVProviderConfig `mapstructure:"provider"`
}

// IDVProviderConfig is the identity verification provider the customer is
// sent to; without a URL the sandbox uses its simulation and production
// offers no verification.
type IDVProviderConfig struct {
	URL string `mapstructure:"url"`
	// Secret signs the session links and the provider's callbacks.
	Secret string `mapstructure:"secret"`
	// SessionTTL is how long a session link works.
	SessionTTL time.Duration `mapstructure:"session_ttl"`
}

// idvDefaults verify from 10,000.00 on, and every sole proprietor, who is
// liable in person; no provider is configured.
var idvDefaults = map[string]any{
	"idv.amount_threshold":     1000000,
	"idv.legal_forms":          endcustomer.LegalFormCodes(endcustomer.SoleProprietorship),
	"idv.provider.url":         "",
	"idv.provider.secret":      "",
	"idv.provider.session_ttl": "30m",
}

// Rules are the IDV rules of the configuration.
func (c IDVConfig) Rules() endcustomer.IDVRules {
	return endcustomer.IDVRules{AmountThreshold: c.AmountThreshold, LegalForms: slices.Clone(c.LegalForms)}
}

// validateIDV checks the rules, which every process that decides on an
// offer reads.
func (c *Config) validateIDV(bad func(key, format string, args ...any)) {
	if c.IDV.AmountThreshold < 0 {
		bad("idv.amount_threshold", "must not be negative, got %d", c.IDV.AmountThreshold)
	}
	for _, code := range c.IDV.LegalForms {
		if _, ok := endcustomer.LegalFormByCode(code); !ok {
			bad("idv.legal_forms", "%q is not a legal form code; docs/customer-api.md lists them (de_gmbh, de_sole_proprietor, sole_proprietor, …)", code)
		}
	}
}

// validateIDVProvider checks the provider, which the API alone talks to.
func (c *Config) validateIDVProvider(bad func(key, format string, args ...any)) {
	p := c.IDV.Provider
	if p.URL != "" {
		if !absoluteHTTP(p.URL) {
			bad("idv.provider.url", "must be an absolute http(s) URL, got %q", p.URL)
		}
		if len(p.Secret) < MinKeyLength {
			bad("idv.provider.secret", "must be a secret of at least %d bytes shared with the provider", MinKeyLength)
		}
	}
	if p.SessionTTL < time.Minute || p.SessionTTL > 24*time.Hour {
		bad("idv.provider.session_ttl", "must be between 1m and 24h, got %s", p.SessionTTL)
	}
}
