package config

import (
	"net/url"
	"strings"
)

// CheckoutConfig configures the hosted checkout page.
type CheckoutConfig struct {
	// FrameAncestors are the origins (https://shop.example) that may show
	// the checkout inside a frame; none may when the list is empty.
	FrameAncestors []string `mapstructure:"frame_ancestors"`
}

var checkoutDefaults = map[string]any{
	"checkout.frame_ancestors": []string{},
}

// validateCheckout checks that every frame ancestor is a bare origin: it
// goes verbatim into the page's Content-Security-Policy, where a path,
// a space or a semicolon would change the policy's meaning.
func (c *Config) validateCheckout(bad func(key, format string, args ...any)) {
	for _, origin := range c.Checkout.FrameAncestors {
		if !isOrigin(origin) {
			bad("checkout.frame_ancestors", "must list origins such as https://shop.example (scheme, host and optional port only), got %q", origin)
		}
	}
}

// isOrigin reports whether raw is scheme://host[:port] and nothing more.
func isOrigin(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" &&
		u.User == nil && u.Path == "" && u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery &&
		!strings.ContainsAny(raw, " ;,'\"*")
}
