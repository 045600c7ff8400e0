package risk

import (
	"errors"
	"strings"
	"testing"
)

// reasonYAML is a complete reason for the tests' rules.
const reasonYAML = `{code: some_reason, en: "In English.", de: "Auf Deutsch.", nl: "In het Nederlands."}`

// ruleSet compiles a rule set of the tests, failing the test when it does
// not compile.
func ruleSet(t testing.TB, source string) *RuleSet {
	t.Helper()
	rs, err := ParseRuleSet("test.yaml", []byte(source))
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// The issue's example is the format: version, ordered rules with id, when,
// outcome and a reason in three languages, and a default.
func TestRuleSetOfTheIssuesShape(t *testing.T) {
	rs := ruleSet(t, `version: 2026-11-25.1
rules:
  - id: too-large
    when: offer.total_net > 5000000
    outcome: decline
    reason: {code: amount_too_large, en: "The amount is too large.", de: "Der Betrag ist zu hoch.", nl: "Het bedrag is te hoog."}
  - id: review-software
    when: offer.lines.exists(l, l.product_type == "software")
    outcome: manual
    reason: {code: software_review, en: "Software is reviewed.", de: "Software wird geprüft.", nl: "Software wordt beoordeeld."}
default: {outcome: accept, reason: {code: ok, en: "Accepted.", de: "Angenommen.", nl: "Geaccepteerd."}}
`)
	if rs.Version != "2026-11-25.1" || len(rs.Rules) != 2 || rs.Rules[0].ID != "too-large" || rs.Rules[1].Outcome != Manual {
		t.Fatalf("parsed %+v", rs)
	}
	cases := []struct {
		snap   Snapshot
		rule   string
		reason Reason
	}{
		{Snapshot{Offer: Offer{TotalNet: 5_000_001, Lines: []Line{{ProductType: "software"}}}}, "too-large",
			Reason{Code: "amount_too_large", EN: "The amount is too large.", DE: "Der Betrag ist zu hoch.", NL: "Het bedrag is te hoog."}},
		{Snapshot{Offer: Offer{TotalNet: 5_000_000, Lines: []Line{{ProductType: "hardware"}, {ProductType: "software"}}}}, "review-software",
			Reason{Code: "software_review", EN: "Software is reviewed.", DE: "Software wird geprüft.", NL: "Software wordt beoordeeld."}},
		{Snapshot{Offer: Offer{TotalNet: 100}}, DefaultRuleID, Reason{Code: "ok", EN: "Accepted.", DE: "Angenommen.", NL: "Geaccepteerd."}},
	}
	for _, tc := range cases {
		d := rs.Evaluate(tc.snap)
		if d.RuleID != tc.rule || d.Reason != tc.reason || d.RuleSetVersion != "2026-11-25.1" || d.Error != "" {
			t.Errorf("decided %+v, want rule %s with %+v", d, tc.rule, tc.reason)
		}
	}
}

// The first rule whose condition holds decides, whatever the later ones
// say; a version written like a date stays the text it is.
func TestFirstMatchWins(t *testing.T) {
	rs := ruleSet(t, `version: 2026-11-25
rules:
  - {id: first, when: "offer.total_net > 10", outcome: manual, reason: `+reasonYAML+`}
  - {id: second, when: "offer.total_net > 5", outcome: decline, reason: `+reasonYAML+`}
default: {outcome: accept, reason: `+reasonYAML+`}
`)
	if rs.Version != "2026-11-25" {
		t.Errorf("version %q", rs.Version)
	}
	for net, want := range map[int64]string{11: "first", 6: "second", 5: DefaultRuleID} {
		if d := rs.Evaluate(Snapshot{Offer: Offer{TotalNet: net}}); d.RuleID != want {
			t.Errorf("net %d: decided by %s, want %s", net, d.RuleID, want)
		}
	}
}

// A rule set that cannot be loaded is refused with every problem, each
// naming the rule (when in one) and the position in the file.
func TestRuleSetLoadingErrors(t *testing.T) {
	valid := func(when string) string {
		return "version: v1\nrules:\n  - id: r1\n    when: " + when + "\n    outcome: decline\n    reason: " + reasonYAML + "\ndefault: {outcome: accept, reason: " + reasonYAML + "}\n"
	}
	cases := []struct {
		name, source string
		want         []string
	}{
		{"empty", "", []string{"test.yaml: the rule set is empty"}},
		{"not yaml", "version: [v1\n", []string{"test.yaml:1:1: not valid YAML"}},
		{"not a mapping", "- a\n- b\n", []string{"test.yaml:1:1: the rule set must be a mapping of default, rules, version"}},
		{"unknown top-level key", "version: v1\nrule: []\ndefault: {outcome: accept, reason: " + reasonYAML + "}\n",
			[]string{`test.yaml:2:1: unknown key "rule" in the rule set; the keys are default, rules, version`}},
		{"no version, no default", "rules: []\n", []string{"test.yaml:1:1: version is missing", "test.yaml:1:1: default is missing"}},
		{"unknown outcome", strings.Replace(valid("offer.total_net > 1"), "outcome: decline", "outcome: refuse", 1),
			[]string{`test.yaml:5:14: rule "r1": outcome "refuse" is not one of accept, decline, manual`}},
		{"reason without nl", strings.Replace(valid("offer.total_net > 1"), `, nl: "In het Nederlands."`, "", 1),
			[]string{`test.yaml:6:13: rule "r1": reason.nl is missing: every reason has a code and a text in en, de and nl`}},
		{"bad reason code", strings.Replace(valid("offer.total_net > 1"), "code: some_reason", "code: Some-Reason", 1),
			[]string{`test.yaml:6:20: rule "r1": reason.code "Some-Reason" must be lower-case`}},
		{"unknown rule key", strings.Replace(valid("offer.total_net > 1"), "    outcome: decline", "    outcome: decline\n    note: x", 1),
			[]string{`test.yaml:6:5: rule "r1": unknown key "note" in rules[0]; the keys are id, outcome, reason, when`}},
		{"missing when", strings.Replace(valid("offer.total_net > 1"), "    when: offer.total_net > 1\n", "", 1),
			[]string{`test.yaml:3:5: rule "r1": when is missing in rules[0]`}},
		{"duplicate id", "version: v1\nrules:\n  - {id: r1, when: \"true\", outcome: accept, reason: " + reasonYAML + "}\n  - {id: r1, when: \"true\", outcome: accept, reason: " + reasonYAML + "}\ndefault: {outcome: accept, reason: " + reasonYAML + "}\n",
			[]string{`test.yaml:4:10: rule "r1": id "r1" is used by an earlier rule`}},
		{"reserved id", strings.Replace(valid("offer.total_net > 1"), "id: r1", "id: default", 1),
			[]string{`test.yaml:3:9: rule "default": id "default" is reserved`}},
		{"cel syntax error", valid("offer.total_net >"), []string{`test.yaml:4:28: rule "r1": Syntax error`}},
		{"undefined field", valid("offer.total_nett > 1"), []string{`test.yaml:4:16: rule "r1": undefined field 'total_nett'`}},
		{"undeclared variable", valid("order.total_net > 1"), []string{`test.yaml:4:11: rule "r1": undeclared reference to 'order'`}},
		{"type mismatch", valid(`offer.total_net > "5"`), []string{`test.yaml:4:27: rule "r1": found no matching overload for '_>_' applied to '(int, string)'`}},
		{"quoted condition", valid(`"customer.country == 5"`), []string{`test.yaml:4:29: rule "r1": found no matching overload for '_==_' applied to '(string, int)'`}},
		{"not a bool", valid("offer.total_net + 1"), []string{`test.yaml:4:11: rule "r1": the condition is of type int; it must be a bool`}},
		{"literal block", strings.Replace(valid("X"), "when: X", "when: |\n      offer.total_net > 1 &&\n        customer.nme == \"\"", 1),
			[]string{`test.yaml:6:17: rule "r1": undefined field 'nme'`}},
		{"folded block", strings.Replace(valid("X"), "when: X", "when: >\n      offer.total_net > 1 &&\n        customer.nme == \"\"", 1),
			[]string{`test.yaml:4:11: rule "r1": undefined field 'nme' (at 2:11 of the condition)`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseRuleSet("test.yaml", []byte(tc.source))
			var loadErr *LoadError
			if !errors.As(err, &loadErr) {
				t.Fatalf("want a *LoadError, got %v", err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("want %d problems, got:\n%s", len(tc.want), err)
			}
			for i, want := range tc.want {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("problem %d:\n got %s\nwant %s...", i, lines[i], want)
				}
			}
		})
	}
}

// A condition that fails at evaluation (here a limit the seller does not
// have) decides manual with the reason rule_error, naming the rule and the
// error: no offer passes a rule it was not checked against.
func TestRuleErrorGoesToAnOperator(t *testing.T) {
	rs := ruleSet(t, `version: v1
rules:
  - {id: seller-cap, when: "offer.total_net > seller.limits.max_offer_net", outcome: decline, reason: `+reasonYAML+`}
default: {outcome: accept, reason: `+reasonYAML+`}
`)
	d := rs.Evaluate(Snapshot{Offer: Offer{TotalNet: 10}})
	if d.Outcome != Manual || d.RuleID != "seller-cap" || d.Reason.Code != "rule_error" || !strings.Contains(d.Error, "max_offer_net") {
		t.Errorf("decided %+v", d)
	}
	if d.Reason.EN == "" || d.Reason.DE == "" || d.Reason.NL == "" {
		t.Errorf("the rule error's reason lacks a language: %+v", d.Reason)
	}
	d = rs.Evaluate(Snapshot{Offer: Offer{TotalNet: 10}, Seller: Seller{Limits: map[string]int64{"max_offer_net": 5}}})
	if d.Outcome != Decline || d.Error != "" {
		t.Errorf("with the limit set: %+v", d)
	}
}
