package config

import (
	"fmt"
	"net/netip"
	"strings"
)

// RateLimitConfig bounds how fast clients may call one API process.
type RateLimitConfig struct {
	// Seller limits each seller's authenticated requests.
	Seller BucketConfig `mapstructure:"seller"`
	// Address limits each client address on the routes callable without
	// an access token (the token endpoint, upload and error-report links).
	Address BucketConfig `mapstructure:"address"`
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
	"http.trusted_proxies":         []string{},
}

func (c *Config) validateRateLimits(bad func(key, format string, args ...any)) {
	for key, b := range map[string]BucketConfig{"ratelimit.seller": c.RateLimit.Seller, "ratelimit.address": c.RateLimit.Address} {
		if b.PerSecond < minPerSecond || b.PerSecond > maxPerSecond {
			bad(key+".per_second", "must be between %g and %d requests a second, got %g", minPerSecond, maxPerSecond, b.PerSecond)
		}
		if b.Burst < 1 || b.Burst > maxBurst {
			bad(key+".burst", "must be between 1 and %d requests, got %d", maxBurst, b.Burst)
		}
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
