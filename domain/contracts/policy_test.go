package contracts

import (
	"slices"
	"strings"
	"testing"
)

func TestDefaultPolicyIsValid(t *testing.T) {
	p := DefaultPolicy()
	if ps := p.Validate(); len(ps) != 0 {
		t.Fatalf("the default policy has problems: %v", ps)
	}
	if p.NoticeDays != 90 || p.ResidualBasisPoints != 1000 || p.ExtensionMonths != 12 || p.QuoteValidityDays != 14 {
		t.Errorf("the default policy is %+v, not the issue's 90 days, 10 %%, 12 months, 14 days", p)
	}
	if p.check() != nil {
		t.Errorf("check refuses the default: %v", p.check())
	}
}

func TestValidateNamesEachSetting(t *testing.T) {
	for _, tc := range []struct {
		key    string
		breaks func(p *Policy)
	}{
		{"notice_days", func(p *Policy) { p.NoticeDays = 0 }},
		{"notice_days", func(p *Policy) { p.NoticeDays = 366 }},
		{"residual_basis_points", func(p *Policy) { p.ResidualBasisPoints = -1 }},
		{"residual_basis_points", func(p *Policy) { p.ResidualBasisPoints = 10001 }},
		{"extension_months", func(p *Policy) { p.ExtensionMonths = 0 }},
		{"extension_months", func(p *Policy) { p.ExtensionMonths = 37 }},
		{"extension_rate_basis_points", func(p *Policy) { p.ExtensionRateBasisPoints = 0 }},
		{"extension_rate_basis_points", func(p *Policy) { p.ExtensionRateBasisPoints = 10001 }},
		{"termination_yearly_rate_basis_points", func(p *Policy) { p.TerminationYearlyRateBasisPoints = -1 }},
		{"termination_yearly_rate_basis_points", func(p *Policy) { p.TerminationYearlyRateBasisPoints = 10001 }},
		{"termination_fee_net", func(p *Policy) { p.TerminationFeeNet = -1 }},
		{"termination_fee_net", func(p *Policy) { p.TerminationFeeNet = 100_000_001 }},
		{"quote_validity_days", func(p *Policy) { p.QuoteValidityDays = 0 }},
		{"quote_validity_days", func(p *Policy) { p.QuoteValidityDays = 91 }},
	} {
		p := DefaultPolicy()
		tc.breaks(&p)
		ps := p.Validate()
		if len(ps) != 1 || ps[0].Key != tc.key || ps[0].Message == "" {
			t.Errorf("%+v: problems %v, want one for %s", p, ps, tc.key)
		}
		if err := p.check(); err == nil || !strings.Contains(err.Error(), tc.key+": ") {
			t.Errorf("%s: check says %v", tc.key, err)
		}
	}
	// The bounds themselves are allowed.
	edges := Policy{NoticeDays: 365, ResidualBasisPoints: 0, ExtensionMonths: 36, ExtensionRateBasisPoints: 10000,
		TerminationYearlyRateBasisPoints: 0, TerminationFeeNet: 100_000_000, QuoteValidityDays: 90}
	if ps := edges.Validate(); len(ps) != 0 {
		t.Errorf("the bounds are refused: %v", ps)
	}
}

func TestValidateListsEveryProblemInFieldOrder(t *testing.T) {
	var keys []string
	for _, p := range (Policy{ResidualBasisPoints: -1, TerminationYearlyRateBasisPoints: -1, TerminationFeeNet: -1}).Validate() {
		keys = append(keys, p.Key)
	}
	want := []string{"notice_days", "residual_basis_points", "extension_months", "extension_rate_basis_points",
		"termination_yearly_rate_basis_points", "termination_fee_net", "quote_validity_days"}
	if !slices.Equal(keys, want) {
		t.Errorf("problems for %v, want %v", keys, want)
	}
}
