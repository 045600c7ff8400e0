package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tenurehq/tenure/config"
)

// Policy decides whether imported products are supported and which
// pricing category prices them.
type Policy struct {
	// Sandbox supports products automatically, up to SandboxLimit
	// supported products per seller; Rules decide otherwise.
	Sandbox      bool
	SandboxLimit int
	Rules        Rules
	// DefaultPricingCategory prices products without a product type.
	DefaultPricingCategory string
}

// NewPolicy is the support policy of a deployment's configuration.
func NewPolicy(c *config.Config) Policy {
	r := c.Catalog.Rules
	return Policy{
		Sandbox:      c.Environment == config.Sandbox,
		SandboxLimit: c.Catalog.SandboxSupportLimit,
		Rules: Rules{
			SupportedTypes:    r.SupportedProductTypes,
			ReviewTypes:       r.ReviewProductTypes,
			MinNetPrice:       r.MinNetPrice,
			MaxNetPrice:       r.MaxNetPrice,
			DeniedCategories:  r.DeniedCategories,
			AllowedCategories: r.AllowedCategories,
		},
		DefaultPricingCategory: c.Pricing.DefaultCategory,
	}
}

// Rules categorise products in production.
type Rules struct {
	// SupportedTypes are supported when no other rule objects.
	SupportedTypes []string
	// ReviewTypes, and products without a type, are to be reviewed.
	ReviewTypes []string
	// MinNetPrice: cheaper products are unsupported (minor units).
	MinNetPrice int64
	// MaxNetPrice: dearer products are to be reviewed (minor units).
	MaxNetPrice int64
	// DeniedCategories: products in one of these seller categories (id or
	// name, case-insensitive) are unsupported.
	DeniedCategories []string
	// AllowedCategories, when not empty: products in none of them are to
	// be reviewed.
	AllowedCategories []string
}

// Verdict is a support status and the reason for it.
type Verdict struct {
	Status Status
	Reason string
}

// PricingCategory is the category whose rates price a product: its product
// type, or the default category when it has none.
func (p Policy) PricingCategory(prod Product) string {
	if prod.Type != "" {
		return prod.Type
	}
	return p.DefaultPricingCategory
}

// sandboxLimitReason explains an unsupported product beyond the cap.
func (p Policy) sandboxLimitReason() string {
	return fmt.Sprintf("the sandbox supports at most %d products per seller", p.SandboxLimit)
}

// Categorize applies the production rules to a product, first matching
// rule first: denied category, too cheap, product type, allowed
// categories, too dear.
func (r Rules) Categorize(p Product) Verdict {
	if c, ok := p.inCategory(r.DeniedCategories); ok {
		return Verdict{Unsupported, fmt.Sprintf("products in the category %q are not financed", c)}
	}
	if net := p.ListPrice.Net; net < r.MinNetPrice {
		return Verdict{Unsupported, fmt.Sprintf("the net price %d is below the minimum of %d", net, r.MinNetPrice)}
	}
	switch {
	case p.Type == "":
		return Verdict{ToBeReviewed, "the product has no seller_product_type"}
	case slices.Contains(r.ReviewTypes, p.Type):
		return Verdict{ToBeReviewed, fmt.Sprintf("products of type %s are reviewed", p.Type)}
	case !slices.Contains(r.SupportedTypes, p.Type):
		return Verdict{Unsupported, fmt.Sprintf("products of type %s are not financed", p.Type)}
	}
	if _, ok := p.inCategory(r.AllowedCategories); len(r.AllowedCategories) > 0 && !ok {
		return Verdict{ToBeReviewed, "the product is in none of the categories financed without review"}
	}
	if net := p.ListPrice.Net; net > r.MaxNetPrice {
		return Verdict{ToBeReviewed, fmt.Sprintf("the net price %d is above %d, which is reviewed", net, r.MaxNetPrice)}
	}
	return Verdict{Status: Supported}
}

// inCategory finds the first of the product's categories whose id or name
// is in the list, case-insensitively.
func (p Product) inCategory(list []string) (string, bool) {
	for _, c := range p.Categories {
		for _, want := range list {
			if strings.EqualFold(c.ID, want) || strings.EqualFold(c.Name, want) {
				return want, true
			}
		}
	}
	return "", false
}
