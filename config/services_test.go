package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
)

func TestServiceDefaults(t *testing.T) {
	c := validConfig(t)
	engine, _ := c.Pricing.Engine()
	want := pricing.ServiceTerms{MonthlyNet: 490, DeductibleNet: 4900, AccessoryType: "device"}
	if got := engine.Services["hardware"][pricing.ServiceReplace]; got != want {
		t.Errorf("hardware replacement: %+v", got)
	}
	if got := engine.Services["hardware_built_to_order"][pricing.ServiceReplace]; got.MonthlyNet != 690 || got.DeductibleNet != 9900 {
		t.Errorf("built-to-order replacement: %+v", got)
	}
	if len(engine.Services["software"]) != 0 || len(engine.Services["service"]) != 0 {
		t.Errorf("software and services offer none: %+v", engine.Services)
	}
	e, err := c.Pricing.NewEngine()
	if err != nil || len(e.Services("hardware")) != 1 {
		t.Errorf("the engine offers the default service: %v", err)
	}
}

func TestServicesFromFileAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	yaml := `pricing:
  rates:
    furniture: {6: 1800, 12: 900, 24: 500, 36: 300}
  services:
    furniture:
      service_replace:
        monthly_net: 300
        images:
          url1x: https://cdn.example.com/replace.png
          url2x: https://cdn.example.com/replace@2x.png
          url3x: https://cdn.example.com/replace@3x.png
`
	if err := os.WriteFile(filepath.Join(dir, "tenure.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TENURE_PRICING_SERVICES_HARDWARE_SERVICE_REPLACE_MONTHLY_NET", "590")
	t.Setenv("TENURE_PRICING_SERVICES_HARDWARE_BUILT_TO_ORDER_SERVICE_REPLACE_MONTHLY_NET", "0")
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	e, err := c.Pricing.NewEngine()
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Services("hardware"); len(got) != 1 || got[0].MonthlyNet != 590 || got[0].DeductibleNet != 4900 {
		t.Errorf("the environment overrides one key: %+v", got)
	}
	if got := e.Services("hardware_built_to_order"); len(got) != 0 {
		t.Errorf("0 turns a service off: %+v", got)
	}
	if got := e.Services("furniture"); len(got) != 1 || got[0].MonthlyNet != 300 || got[0].Images.URL3x != "https://cdn.example.com/replace@3x.png" {
		t.Errorf("a category of the file: %+v", got)
	}
}

func TestValidateNamesBadServiceKeys(t *testing.T) {
	c := validConfig(t)
	c.Pricing.Services["hardware"]["service_replace"] = ServiceConfig{MonthlyNet: -1, AccessoryType: "Phone Case", Images: ServiceImagesConfig{URL1x: "https://x.example/1.png"}}
	c.Pricing.Services["hardware"]["service_repair"] = ServiceConfig{MonthlyNet: 100}
	c.Pricing.Services["furniture"] = map[string]ServiceConfig{"service_replace": {MonthlyNet: 100}}
	err := c.Validate(0)
	for _, want := range []string{
		"pricing.services.hardware.service_replace.monthly_net (TENURE_PRICING_SERVICES_HARDWARE_SERVICE_REPLACE_MONTHLY_NET): must be between 0",
		"pricing.services.hardware.service_replace.accessory_type (TENURE_PRICING_SERVICES_HARDWARE_SERVICE_REPLACE_ACCESSORY_TYPE): must be 1 to 64 lower-case",
		"pricing.services.hardware.service_replace.images (TENURE_PRICING_SERVICES_HARDWARE_SERVICE_REPLACE_IMAGES): set all three",
		"pricing.services.hardware.service_repair (TENURE_PRICING_SERVICES_HARDWARE_SERVICE_REPAIR): is not a first-party service type",
		"pricing.services.furniture (TENURE_PRICING_SERVICES_FURNITURE): is not a pricing category with rates",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not say %s:\n%v", want, err)
		}
	}
}

func TestLoadNamesAMistypedServicePrice(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("TENURE_PRICING_SERVICES_HARDWARE_SERVICE_REPLACE_DEDUCTIBLE_NET", "fifty")
	_, err := Load("")
	want := "pricing.services.hardware.service_replace.deductible_net (TENURE_PRICING_SERVICES_HARDWARE_SERVICE_REPLACE_DEDUCTIBLE_NET): must be a whole number"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("want %q, got %v", want, err)
	}
}
