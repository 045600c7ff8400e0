package config

import "github.com/tenurehq/tenure/domain/pricing"

// ServiceConfig is one first-party service offered with lines of a
// pricing category (pricing.services.<category>.<type>).
type ServiceConfig struct {
	// MonthlyNet is the price per unit and month, net minor units; 0
	// offers no such service.
	MonthlyNet int64 `mapstructure:"monthly_net"`
	// DeductibleNet is paid per claim, net minor units.
	DeductibleNet int64 `mapstructure:"deductible_net"`
	// AccessoryType names what the service covers.
	AccessoryType string `mapstructure:"accessory_type"`
	// Images show the service at 1x, 2x and 3x pixel density.
	Images ServiceImagesConfig `mapstructure:"images"`
}

// ServiceImagesConfig are the links of a service's picture.
type ServiceImagesConfig struct {
	URL1x string `mapstructure:"url1x"`
	URL2x string `mapstructure:"url2x"`
	URL3x string `mapstructure:"url3x"`
}

// serviceDefaults offer device replacement with hardware: a deductible
// per claim keeps the monthly price low. Built-to-order hardware is dearer
// to replace. Software and services have nothing to replace.
var serviceDefaults = map[string]any{
	"pricing.services.hardware.service_replace.monthly_net":                   490,
	"pricing.services.hardware.service_replace.deductible_net":                4900,
	"pricing.services.hardware.service_replace.accessory_type":                "device",
	"pricing.services.hardware.service_replace.images.url1x":                  "",
	"pricing.services.hardware.service_replace.images.url2x":                  "",
	"pricing.services.hardware.service_replace.images.url3x":                  "",
	"pricing.services.hardware_built_to_order.service_replace.monthly_net":    690,
	"pricing.services.hardware_built_to_order.service_replace.deductible_net": 9900,
	"pricing.services.hardware_built_to_order.service_replace.accessory_type": "device",
	"pricing.services.hardware_built_to_order.service_replace.images.url1x":   "",
	"pricing.services.hardware_built_to_order.service_replace.images.url2x":   "",
	"pricing.services.hardware_built_to_order.service_replace.images.url3x":   "",
}

// engineServices are the configured services in the engine's terms.
func (p PricingConfig) engineServices() map[string]map[string]pricing.ServiceTerms {
	out := make(map[string]map[string]pricing.ServiceTerms, len(p.Services))
	for category, byType := range p.Services {
		out[category] = make(map[string]pricing.ServiceTerms, len(byType))
		for typ, s := range byType {
			out[category][typ] = pricing.ServiceTerms{
				MonthlyNet:    s.MonthlyNet,
				DeductibleNet: s.DeductibleNet,
				AccessoryType: s.AccessoryType,
				Images:        pricing.ServiceImages{URL1x: s.Images.URL1x, URL2x: s.Images.URL2x, URL3x: s.Images.URL3x},
			}
		}
	}
	return out
}
