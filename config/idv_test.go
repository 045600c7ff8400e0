package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestIDVDefaults(t *testing.T) {
	c := validConfig(t)
	rules := c.IDV.Rules()
	if rules.AmountThreshold != 1000000 || !slices.Contains(rules.LegalForms, "de_sole_proprietor") || slices.Contains(rules.LegalForms, "de_gmbh") {
		t.Errorf("IDV defaults: %+v", rules)
	}
	if !rules.Applies(500000, "de_freelancer") {
		t.Error("a freelancer is not verified by default")
	}
	if c.IDV.Provider.URL != "" || c.IDV.Provider.SessionTTL != 30*time.Minute {
		t.Errorf("no provider by default, sessions of 30m: %+v", c.IDV.Provider)
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

func TestValidateNamesBadIDVProviderKeys(t *testing.T) {
	c := validConfig(t)
	c.IDV.Provider.URL = "idv.example/start"
	c.IDV.Provider.Secret = "short"
	c.IDV.Provider.SessionTTL = 48 * time.Hour
	err := c.Validate(NeedHTTP)
	for _, want := range []string{
		`idv.provider.url (TENURE_IDV_PROVIDER_URL): must be an absolute http(s) URL, got "idv.example/start"`,
		"idv.provider.secret (TENURE_IDV_PROVIDER_SECRET): must be a secret of at least 32 bytes",
		"idv.provider.session_ttl (TENURE_IDV_PROVIDER_SESSION_TTL): must be between 1m and 24h",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %s:\n%v", want, err)
		}
	}
	if err := c.Validate(NeedDatabase); err != nil {
		t.Errorf("only the API talks to the provider: %v", err)
	}
}
