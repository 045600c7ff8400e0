package config

import (
	"fmt"
	"net/netip"
	"strings"
	"time"
)

// RateLimitConfig bounds how fast clients may call one API process, and
// how many wrong discount codes the customers of all processes may try.
type RateLimitConfig struct {
	// Seller limits each seller's authenticated requests.
	Seller BucketConfig `mapstructure:"seller"`
	// Address limits each client address on the routes callable without
	// an access token (the token endpoint, upload and error-report links,
	// the Customer-Facing operations without a bearer token).
	Address BucketConfig `mapstructure:"address"`
	// Offer limits the Customer-Facing requests made with an offer's
	// bearer token, per offer.
	Offer BucketConfig `mapstructure:"offer"`
	// SharedToken limits the requests made with an offer's shared token
	// (the anonymised operations and the token exchange), per token.
	SharedToken BucketConfig `mapstructure:"shared_token"`
	// DiscountCodes bounds failed discount code attempts.
	DiscountCodes DiscountAttemptsConfig `mapstructure:"discount_codes"`
}

// DiscountAttemptsConfig is the budget of failed discount code attempts
// (a validation or an acceptance naming a code that cannot be applied):
// at most PerOffer on one offer and PerAddress from one client address
// within any Window. It is kept in PostgreSQL, so it holds across API
// processes and restarts.
type DiscountAttemptsConfig struct {
	PerOffer   int           `mapstructure:"per_offer"`
	PerAddress int           `mapstructure:"per_address"`
	Window     time.Duration `mapstructure:"window"`
}

// BucketConfig is a token bucket: Burst requests at once, refilled at
// PerSecond requests a second.
type BucketConfig struct {
	PerSecond float64 `mapstructure:"per_second"`
	Burst     int     `mapstructure:"burst"`
}

// The bounds of a bucket setting: the slowest refill is one request every
// 100 s, which keeps a full bucket's arithmetic in range.
const (
	minPerSecond = 0.01
	maxPerSecond = 1_000_000
	maxBurst     = 1_000_000
)

var rateLimitDefaults = map[string]any{
	// Above what one API process serves a single seller in the benchmarks
	// (1,000 GET/s): only a runaway client meets it unless lowered.
	"ratelimit.seller.per_second": 2000,
	"ratelimit.seller.burst":      4000,
	// The unauthenticated routes are called once per token lifetime or
	// per CSV import; 10 a second leaves room for many clients behind one
	// address.
	"ratelimit.address.per_second": 10,
	"ratelimit.address.burst":      100,
	// The hosted checkout makes a few dozen bearer requests an offer
	// (previews as the customer picks terms, the data, the acceptance):
	// 120 at once and one a second is far above that, and a script spends
	// it within seconds.
	"ratelimit.offer.per_second": 1,
	"ratelimit.offer.burst":      120,
	// The shared token opens the checkout (two reads and an exchange per
	// page load), and the page follows a reviewed offer through it: a
	// read every 3 s for a minute, then every 15 s, a third and a thirtieth
	// of a request a second. Two tabs on one offer dip into the burst for
	// that first minute only.
	"ratelimit.shared_token.per_second": 0.5,
	"ratelimit.shared_token.burst":      60,
	// A customer mistypes a code a few times; one address may serve the
	// customers of an office.
	"ratelimit.discount_codes.per_offer":   10,
	"ratelimit.discount_codes.per_address": 20,
	"ratelimit.discount_codes.window":      "1h",
	"http.trusted_proxies":                 []string{},
}

// The bounds of the discount code budget.
const (
	maxDiscountAttempts     = 10_000
	minDiscountWindow       = time.Minute
	maxDiscountWindow       = 24 * time.Hour
	discountAttemptsSection = "ratelimit.discount_codes"
)

func (c *Config) validateRateLimits(bad func(key, format string, args ...any)) {
	r := c.RateLimit
	for key, b := range map[string]BucketConfig{
		"ratelimit.seller": r.Seller, "ratelimit.address": r.Address, "ratelimit.offer": r.Offer, "ratelimit.shared_token": r.SharedToken,
	} {
		if b.PerSecond < minPerSecond || b.PerSecond > maxPerSecond {
			bad(key+".per_second", "must be between %g and %d requests a second, got %g", minPerSecond, maxPerSecond, b.PerSecond)
		}
		if b.Burst < 1 || b.Burst > maxBurst {
			bad(key+".burst", "must be between 1 and %d requests, got %d", maxBurst, b.Burst)
		}
	}
	d := r.DiscountCodes
	for key, n := range map[string]int{discountAttemptsSection + ".per_offer": d.PerOffer, discountAttemptsSection + ".per_address": d.PerAddress} {
		if n < 1 || n > maxDiscountAttempts {
			bad(key, "must be between 1 and %d failed attempts, got %d", maxDiscountAttempts, n)
		}
	}
	if d.Window < minDiscountWindow || d.Window > maxDiscountWindow {
		bad(discountAttemptsSection+".window", "must be between %s and %s, got %s", minDiscountWindow, maxDiscountWindow, d.Window)
	}
	if _, err := c.HTTP.Proxies(); err != nil {
		bad("http.trusted_proxies", "%s", err)
	}
}

// Proxies are the trusted proxies as address prefixes: requests from them
// are attributed to the address their X-Forwarded-For names.
func (h HTTPConfig) Proxies() ([]netip.Prefix, error) {
	prefixes := make([]netip.Prefix, 0, len(h.TrustedProxies))
	for _, entry := range h.TrustedProxies {
		entry = strings.TrimSpace(entry)
		if p, err := netip.ParsePrefix(entry); err == nil {
			prefixes = append(prefixes, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(entry)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an IP address nor a CIDR prefix such as 10.0.0.0/8", entry)
		}
		prefixes = append(prefixes, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return prefixes, nil
}
