package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCustomerDefaults(t *testing.T) {
	t.Chdir(t.TempDir())
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Auth.CustomerTokenTTL != time.Hour {
		t.Errorf("unexpected defaults: %+v", c.Auth)
	}
	id, countries, ok := c.Sellers.ContractualEntity("")
	if !ok || id != "tenure" || !slices.Contains(countries, "DE") || !slices.Contains(countries, "NL") {
		t.Errorf("the default entity serves the risk review's countries, got %q %v %v", id, countries, ok)
	}
	if _, _, ok := c.Sellers.ContractualEntity("gone"); ok {
		t.Error("an entity the deployment does not configure resolves")
	}
	if got := c.Terms["en"]["general_terms"]; got != "" {
		t.Errorf("no document is configured by default, got %q", got)
	}
}

func TestCustomerSettingsFromFileAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := filepath.Join(dir, "tenure.yaml")
	yaml := `
sellers:
  contractual_entities:
    tenure-nl: [NL, BE]
  default_contractual_entity: tenure-nl
terms:
  de:
    rental_terms: https://docs.example/de/miete.pdf
`
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TENURE_TERMS_EN_GENERAL_TERMS", "https://docs.example/en/terms.pdf")
	t.Setenv("TENURE_SELLERS_CONTRACTUAL_ENTITIES_TENURE", "DE,AT")
	t.Setenv("TENURE_AUTH_CUSTOMER_TOKEN_TTL", "15m")
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if id, countries, _ := c.Sellers.ContractualEntity(""); id != "tenure-nl" || !slices.Equal(countries, []string{"NL", "BE"}) {
		t.Errorf("the file names the default entity: %q %v", id, countries)
	}
	if _, countries, _ := c.Sellers.ContractualEntity("tenure"); !slices.Equal(countries, []string{"DE", "AT"}) {
		t.Errorf("the variable sets an entity's countries: %v", countries)
	}
	if c.Terms["de"]["rental_terms"] != "https://docs.example/de/miete.pdf" || c.Terms["en"]["general_terms"] != "https://docs.example/en/terms.pdf" {
		t.Errorf("documents from file and variable: %v", c.Terms)
	}
	if c.Auth.CustomerTokenTTL != 15*time.Minute {
		t.Errorf("customer token lifetime %s", c.Auth.CustomerTokenTTL)
	}
	c.Auth.SigningKey, c.Links.SigningKey = strings.Repeat("k", MinKeyLength), strings.Repeat("l", MinKeyLength)
	if err := c.Validate(NeedHTTP); err != nil {
		t.Error(err)
	}
}

func TestValidateCustomerSettings(t *testing.T) {
	c := validConfig(t)
	c.Auth.CustomerTokenTTL = 48 * time.Hour
	c.Sellers.ContractualEntities["bad entity"] = []string{"de"}
	c.Sellers.DefaultContractualEntity = "missing"
	c.Terms["fr"] = map[string]string{"general_terms": "https://x.example"}
	c.Terms["en"]["general_terms"] = "ftp://x"
	err := c.Validate(NeedHTTP)
	for _, want := range []string{
		"auth.customer_token_ttl (TENURE_AUTH_CUSTOMER_TOKEN_TTL): must be between 1m and 24h",
		`sellers.contractual_entities.bad entity`, `"de" is not an upper-case ISO 3166-1 alpha-2 code`,
		`sellers.default_contractual_entity (TENURE_SELLERS_DEFAULT_CONTRACTUAL_ENTITY): must name one of`,
		"terms.fr (TENURE_TERMS_FR): the language must be en, de or nl",
		`terms.en.general_terms (TENURE_TERMS_EN_GENERAL_TERMS): must be an absolute http(s) URL`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %q: %v", want, err)
		}
	}
	if err := c.Validate(NeedDatabase); err != nil {
		t.Errorf("migrations do not need customer settings: %v", err)
	}
}
