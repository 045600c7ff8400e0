package contracts

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tenurehq/tenure/config"
)

// PolicyOf is the policy a deployment's configuration sets (the contracts
// section), or an error naming every setting out of its range by its key
// and variable, as the configuration's own problems are named.
func PolicyOf(c config.ContractsConfig) (Policy, error) {
	p := Policy{
		NoticeDays:                       c.NoticeDays,
		ResidualBasisPoints:              c.ResidualBasisPoints,
		ExtensionMonths:                  c.ExtensionMonths,
		ExtensionRateBasisPoints:         c.ExtensionRateBasisPoints,
		TerminationYearlyRateBasisPoints: c.TerminationYearlyRateBasisPoints,
		TerminationFeeNet:                c.TerminationFeeNet,
		QuoteValidityDays:                c.QuoteValidityDays,
	}
	problems := p.Validate()
	if len(problems) == 0 {
		return p, nil
	}
	lines := make([]string, len(problems))
	for i, pr := range problems {
		key := "contracts." + pr.Key
		lines[i] = fmt.Sprintf("%s (%s): %s", key, config.EnvName(key), pr.Message)
	}
	return Policy{}, errors.New("invalid configuration:\n  " + strings.Join(lines, "\n  "))
}
