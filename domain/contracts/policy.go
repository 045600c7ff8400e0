package contracts

import (
	"errors"
	"fmt"
	"strings"
)

// Policy is every setting of how contracts end: the notice before the end
// of the term, the prices of the end-of-term options and of an early
// termination. A seller may have its own (the residual value is a
// per-seller percentage); DefaultPolicy is Tenure's.
type Policy struct {
	// NoticeDays is how long before the end of the term the contract moves
	// to ending and offers its options.
	NoticeDays int
	// ResidualBasisPoints is the buy-out price in basis points of the net
	// purchase price of the rented units (1000 is 10 %).
	ResidualBasisPoints int64
	// ExtensionMonths is the length of an extension term.
	ExtensionMonths int
	// ExtensionRateBasisPoints is the monthly amount of an extension term
	// in basis points of the contract's monthly net (7000 is 70 %).
	ExtensionRateBasisPoints int64
	// TerminationYearlyRateBasisPoints is the yearly rate the remaining
	// installments of an early termination are discounted at (500 is 5 %
	// a year), compounded monthly.
	TerminationYearlyRateBasisPoints int64
	// TerminationFeeNet is added to an early termination, net minor units
	// of the contract's currency.
	TerminationFeeNet int64
	// QuoteValidityDays is how long a termination quote can be accepted.
	QuoteValidityDays int
}

// DefaultPolicy is the policy of a seller without its own: 90 days'
// notice, a buy-out at 10 % of the net purchase price, an extension of 12
// months at 70 % of the monthly net, early termination discounted at 5 % a
// year with no fee, quotes valid 14 days.
func DefaultPolicy() Policy {
	return Policy{
		NoticeDays:                       90,
		ResidualBasisPoints:              1000,
		ExtensionMonths:                  12,
		ExtensionRateBasisPoints:         7000,
		TerminationYearlyRateBasisPoints: 500,
		TerminationFeeNet:                0,
		QuoteValidityDays:                14,
	}
}

// Limits of a policy's settings.
const (
	maxNoticeDays        = 365
	maxExtensionMonths   = 36
	maxTerminationFee    = 100_000_000 // one million units of the currency
	maxQuoteValidityDays = 90
)

// Problem is one thing wrong with a Policy; Key names the setting relative
// to the configuration section, e.g. "notice_days".
type Problem struct {
	Key     string
	Message string
}

// Validate lists everything wrong with the policy, in the order of its
// fields; none for a usable policy.
func (p Policy) Validate() []Problem {
	var ps []Problem
	bad := func(key, format string, args ...any) {
		ps = append(ps, Problem{Key: key, Message: fmt.Sprintf(format, args...)})
	}
	if p.NoticeDays < 1 || p.NoticeDays > maxNoticeDays {
		bad("notice_days", "must be between 1 and %d days, got %d", maxNoticeDays, p.NoticeDays)
	}
	if p.ResidualBasisPoints < 0 || p.ResidualBasisPoints > basisPointScale {
		bad("residual_basis_points", "must be between 0 and %d basis points of the net purchase price, got %d", basisPointScale, p.ResidualBasisPoints)
	}
	if p.ExtensionMonths < 1 || p.ExtensionMonths > maxExtensionMonths {
		bad("extension_months", "must be between 1 and %d months, got %d", maxExtensionMonths, p.ExtensionMonths)
	}
	if p.ExtensionRateBasisPoints < 1 || p.ExtensionRateBasisPoints > basisPointScale {
		bad("extension_rate_basis_points", "must be between 1 and %d basis points of the monthly net (an extension term never costs more a month), got %d",
			basisPointScale, p.ExtensionRateBasisPoints)
	}
	if p.TerminationYearlyRateBasisPoints < 0 || p.TerminationYearlyRateBasisPoints > basisPointScale {
		bad("termination_yearly_rate_basis_points", "must be between 0 and %d basis points a year, got %d", basisPointScale, p.TerminationYearlyRateBasisPoints)
	}
	if p.TerminationFeeNet < 0 || p.TerminationFeeNet > maxTerminationFee {
		bad("termination_fee_net", "must be between 0 and %d minor units, got %d", maxTerminationFee, p.TerminationFeeNet)
	}
	if p.QuoteValidityDays < 1 || p.QuoteValidityDays > maxQuoteValidityDays {
		bad("quote_validity_days", "must be between 1 and %d days, got %d", maxQuoteValidityDays, p.QuoteValidityDays)
	}
	return ps
}

// check is an error naming every problem of the policy, nil for a usable
// one: prices are never made with a broken policy.
func (p Policy) check() error {
	ps := p.Validate()
	if len(ps) == 0 {
		return nil
	}
	msgs := make([]string, len(ps))
	for i, pr := range ps {
		msgs[i] = pr.Key + ": " + pr.Message
	}
	return errors.New("contract policy: " + strings.Join(msgs, "; "))
}
