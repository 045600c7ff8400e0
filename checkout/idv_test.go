package checkout

import "testing"

func TestIDVRequirement(t *testing.T) {
	rules := IDVRules{AmountThreshold: 1_000_000, LegalForms: []string{"de_sole_proprietor"}}
	cases := []struct {
		name      string
		amount    int64
		legalForm string
		latest    SessionState
		want      IDVResult
	}{
		{"small GmbH", 999_999, "de_gmbh", SessionNone, IDVNotRequired},
		{"at the threshold", 1_000_000, "de_gmbh", SessionNone, IDVNotRequired},
		{"above the threshold", 1_000_001, "de_gmbh", SessionNone, IDVRequired},
		{"a sole proprietor always", 100, "de_sole_proprietor", SessionNone, IDVRequired},
		{"started", 100, "de_sole_proprietor", SessionPending, IDVPending},
		{"verified", 2_000_000, "de_gmbh", SessionVerified, IDVVerified},
		{"failed", 2_000_000, "de_gmbh", SessionFailed, IDVFailed},
		{"not required whatever happened", 100, "de_gmbh", SessionFailed, IDVNotRequired},
		{"no legal form yet", 100, "", SessionNone, IDVNotRequired},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := rules.Requirement(tc.amount, tc.legalForm, tc.latest); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	for result, allows := range map[IDVResult]bool{IDVNotRequired: true, IDVVerified: true, IDVRequired: false, IDVPending: false, IDVFailed: false} {
		if result.AllowsAcceptance() != allows {
			t.Errorf("%s allows acceptance: %v", result, !allows)
		}
	}
}
