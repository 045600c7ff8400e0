package risk

import (
	"fmt"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
)

// Decision is what a rule set decided on a snapshot, and why.
type Decision struct {
	Outcome Outcome `json:"outcome"`
	// RuleID is the rule that decided, DefaultRuleID when none matched.
	RuleID string `json:"rule_id"`
	Reason Reason `json:"reason"`
	// RuleSetVersion is the version of the rule set that decided.
	RuleSetVersion string `json:"rule_set_version"`
	// Error is why RuleID's condition could not be evaluated; the outcome
	// is then Manual with the reason rule_error.
	Error string `json:"error,omitempty"`
}

// Evaluate decides a snapshot: the first rule whose condition holds, else
// the default. It is a pure function of the snapshot: it reads nothing
// else and changes nothing. A condition that fails to evaluate decides
// Manual (reason rule_error): no offer passes a rule it was not checked
// against.
func (s *RuleSet) Evaluate(snap Snapshot) Decision {
	vars, err := cel.NewActivation(snap.activation())
	if err != nil {
		return Decision{Outcome: Manual, RuleID: DefaultRuleID, Reason: ruleError, RuleSetVersion: s.Version, Error: err.Error()}
	}
	for _, r := range s.Rules {
		out, _, err := r.program.Eval(vars)
		if err == nil && out.Type() != types.BoolType {
			err = fmt.Errorf("the condition gave %s, not a bool", out.Type())
		}
		if err != nil {
			return Decision{Outcome: Manual, RuleID: r.ID, Reason: ruleError, RuleSetVersion: s.Version, Error: err.Error()}
		}
		if out == types.True {
			return Decision{Outcome: r.Outcome, RuleID: r.ID, Reason: r.Reason, RuleSetVersion: s.Version}
		}
	}
	return Decision{Outcome: s.Default.Outcome, RuleID: DefaultRuleID, Reason: s.Default.Reason, RuleSetVersion: s.Version}
}
