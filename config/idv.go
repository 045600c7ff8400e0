package config

import (
	"slices"

	"github.com/tenurehq/tenure/checkout"
)

// IDVConfig says when an end customer's identity must be verified before
// an offer can be accepted; see checkout.IDVRules.
type IDVConfig struct {
	// AmountThreshold: offers whose purchase amount (gross minor units)
	// is above it need a verification.
	AmountThreshold int64 `mapstructure:"amount_threshold"`
	// LegalForms always need a verification (codes of checkout.LegalForms).
	LegalForms []string `mapstructure:"legal_forms"`
}

// idvDefaults verify from 10,000.00 on, and every sole proprietor, who is
// liable in person.
var idvDefaults = map[string]any{
	"idv.amount_threshold": 1000000,
	"idv.legal_forms":      checkout.LegalFormCodes(checkout.SoleProprietorship),
}

// Rules are the IDV rules of the configuration.
func (c IDVConfig) Rules() checkout.IDVRules {
	return checkout.IDVRules{AmountThreshold: c.AmountThreshold, LegalForms: slices.Clone(c.LegalForms)}
}

func (c *Config) validateIDV(bad func(key, format string, args ...any)) {
	if c.IDV.AmountThreshold < 0 {
		bad("idv.amount_threshold", "must not be negative, got %d", c.IDV.AmountThreshold)
	}
	for _, code := range c.IDV.LegalForms {
		if _, ok := checkout.LegalFormByCode(code); !ok {
			bad("idv.legal_forms", "%q is not a legal form code; the README lists them (de_gmbh, de_sole_proprietor, sole_proprietor, …)", code)
		}
	}
}
