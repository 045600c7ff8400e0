package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPricingDefaults(t *testing.T) {
	c := validConfig(t)
	engine, keyProblems := c.Pricing.Engine()
	if len(keyProblems) != 0 || len(engine.Problems()) != 0 {
		t.Fatalf("the default pricing is valid: %v %v", keyProblems, engine.Problems())
	}
	if len(engine.Durations) != 3 || engine.Durations[0] != 12 || engine.Durations[2] != 36 || engine.DefaultDuration != 36 {
		t.Errorf("default terms 12, 24, 36 recommending 36: %+v", engine)
	}
	if engine.Rates["hardware"][36] != 350 || engine.Rates["software"][12] != 1000 || engine.MinRentBasis != 10000 {
		t.Errorf("default rates: %+v", engine.Rates)
	}
	if c.Catalog.SandboxSupportLimit != 10000 || c.Catalog.Rules.MinNetPrice != 5000 || len(c.Catalog.Rules.SupportedProductTypes) != 2 {
		t.Errorf("catalog defaults: %+v", c.Catalog)
	}
}

func TestPricingFromFileAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := filepath.Join(dir, "tenure.yaml")
	yaml := "pricing:\n  rates:\n    furniture:\n      12: 700\n      24: 400\n      36: 300\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TENURE_PRICING_DURATIONS", "6,12,24,36")
	t.Setenv("TENURE_PRICING_DEFAULT_DURATION", "24")
	t.Setenv("TENURE_PRICING_RATES_HARDWARE_36", "340")
	t.Setenv("TENURE_CATALOG_RULES_DENIED_CATEGORIES", "weapons,Tobacco")
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	engine, _ := c.Pricing.Engine()
	if len(engine.Durations) != 4 || engine.DefaultDuration != 24 || engine.Rates["hardware"][36] != 340 || engine.Rates["furniture"][24] != 400 {
		t.Errorf("file and environment: %+v", engine)
	}
	if got := c.Catalog.Rules.DeniedCategories; len(got) != 2 || got[1] != "Tobacco" {
		t.Errorf("denied categories from the environment: %v", got)
	}
	// The file's category lacks a 6-month rate, which is now offered.
	c.Auth.SigningKey = strings.Repeat("k", MinKeyLength)
	err = c.Validate(0)
	if err == nil || !strings.Contains(err.Error(), "pricing.rates.furniture.6 (TENURE_PRICING_RATES_FURNITURE_6): is missing") {
		t.Errorf("want the missing rate named, got %v", err)
	}
}

func TestPricingRefusesTermsTheContractCannotExpress(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("TENURE_PRICING_DURATIONS", "12,24,36,48")
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	err = c.Validate(0)
	if err == nil || !strings.Contains(err.Error(), "pricing.durations (TENURE_PRICING_DURATIONS): 48 months is not allowed") ||
		!strings.Contains(err.Error(), "RentalTermMonths") {
		t.Errorf("want 48 refused with the reason, got %v", err)
	}
}

func TestValidateNamesBadPricingAndCatalogKeys(t *testing.T) {
	c := validConfig(t)
	c.Pricing.Rates["hardware"]["36"] = 600
	c.Pricing.Rates["hardware"]["long"] = 100
	c.Pricing.DefaultDuration = 48
	c.Catalog.SandboxSupportLimit = -1
	c.Catalog.Rules.SupportedProductTypes = []string{"hardware", "furniture"}
	c.Catalog.Rules.ReviewProductTypes = []string{"hardware"}
	c.Catalog.Rules.MaxNetPrice = 10
	err := c.Validate(0)
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{
		"pricing.rates.hardware.36 (TENURE_PRICING_RATES_HARDWARE_36): (600) must not exceed",
		"pricing.rates.hardware.long (TENURE_PRICING_RATES_HARDWARE_LONG): the last part must be a number of months",
		"pricing.default_duration (TENURE_PRICING_DEFAULT_DURATION)",
		"catalog.sandbox_support_limit (TENURE_CATALOG_SANDBOX_SUPPORT_LIMIT)",
		`catalog.rules.supported_product_types (TENURE_CATALOG_RULES_SUPPORTED_PRODUCT_TYPES): "furniture" is not a product type`,
		`catalog.rules.review_product_types (TENURE_CATALOG_RULES_REVIEW_PRODUCT_TYPES): "hardware" is also a supported product type`,
		"catalog.rules.max_net_price (TENURE_CATALOG_RULES_MAX_NET_PRICE)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s:\n%v", want, err)
		}
	}
}

func TestLoadNamesAMistypedListElement(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("TENURE_PRICING_DURATIONS", "12,a year")
	_, err := Load("")
	if err == nil || !strings.Contains(err.Error(), "pricing.durations (TENURE_PRICING_DURATIONS): must be a whole number") {
		t.Fatalf("want an error naming pricing.durations, got %v", err)
	}
}

// mapstructure writes keys under a map as pricing.rates[hardware][36];
// the error names the key and its variable instead.
func TestLoadNamesAMistypedRate(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("TENURE_PRICING_RATES_HARDWARE_36", "3.5%")
	_, err := Load("")
	if err == nil || !strings.Contains(err.Error(), "pricing.rates.hardware.36 (TENURE_PRICING_RATES_HARDWARE_36): must be a whole number") {
		t.Fatalf("want an error naming pricing.rates.hardware.36, got %v", err)
	}
}
