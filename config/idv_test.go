package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/checkout"
)

func TestIDVDefaults(t *testing.T) {
	c := validConfig(t)
	rules := c.IDV.Rules()
	if rules.AmountThreshold != 1000000 || !slices.Contains(rules.LegalForms, "de_sole_proprietor") || slices.Contains(rules.LegalForms, "de_gmbh") {
		t.Errorf("IDV defaults: %+v", rules)
	}
	if got := rules.Requirement(500000, "de_freelancer", checkout.SessionNone); got != checkout.IDVRequired {
		t.Errorf("a freelancer is verified by default: %s", got)
	}
}

func TestIDVFromEnvironment(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("TENURE_IDV_AMOUNT_THRESHOLD", "0")
	t.Setenv("TENURE_IDV_LEGAL_FORMS", "de_gbr,partnership")
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if c.IDV.AmountThreshold != 0 || !slices.Equal(c.IDV.LegalForms, []string{"de_gbr", "partnership"}) {
		t.Errorf("IDV from the environment: %+v", c.IDV)
	}
}

func TestValidateNamesBadIDVKeys(t *testing.T) {
	c := validConfig(t)
	c.IDV.AmountThreshold = -1
	c.IDV.LegalForms = []string{"de_gmbh", "gmbh"}
	err := c.Validate(0)
	for _, want := range []string{
		"idv.amount_threshold (TENURE_IDV_AMOUNT_THRESHOLD): must not be negative, got -1",
		`idv.legal_forms (TENURE_IDV_LEGAL_FORMS): "gmbh" is not a legal form code`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %s:\n%v", want, err)
		}
	}
	if err != nil && strings.Contains(err.Error(), `"de_gmbh"`) {
		t.Errorf("de_gmbh is a legal form: %v", err)
	}
}

func TestIDVWithoutLegalForms(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile(filepath.Join(dir, "tenure.yaml"), []byte("idv:\n  legal_forms: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.IDV.LegalForms) != 0 {
		t.Errorf("an empty list in the file turns the legal-form rule off: %v", c.IDV.LegalForms)
	}
}
