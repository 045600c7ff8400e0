package endcustomer

import "testing"

func TestIDVRules(t *testing.T) {
	rules := IDVRules{AmountThreshold: 1_000_000, LegalForms: []string{"de_sole_proprietor"}}
	cases := []struct {
		name      string
		amount    int64
		legalForm string
		want      bool
	}{
		{"small GmbH", 999_999, "de_gmbh", false},
		{"at the threshold", 1_000_000, "de_gmbh", false},
		{"above the threshold", 1_000_001, "de_gmbh", true},
		{"a sole proprietor always", 100, "de_sole_proprietor", true},
		{"no legal form yet", 100, "", false},
		{"no legal form yet, above the threshold", 1_000_001, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := rules.Applies(tc.amount, tc.legalForm); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if (IDVRules{AmountThreshold: 100, LegalForms: []string{""}}).Applies(100, "") {
		t.Error("a configured empty legal form applies to a customer who gave none")
	}
}
