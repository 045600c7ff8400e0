package config

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRateLimitsFromEnvironment(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("TENURE_RATELIMIT_SELLER_PER_SECOND", "0.5")
	t.Setenv("TENURE_RATELIMIT_ADDRESS_BURST", "7")
	t.Setenv("TENURE_HTTP_TRUSTED_PROXIES", "10.0.0.0/8,192.0.2.1")
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if c.RateLimit.Seller.PerSecond != 0.5 || c.RateLimit.Seller.Burst != 4000 || c.RateLimit.Address != (BucketConfig{PerSecond: 10, Burst: 7}) {
		t.Errorf("rate limits %+v", c.RateLimit)
	}
	proxies, err := c.HTTP.Proxies()
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.1/32")}
	if err != nil || !slices.Equal(proxies, want) {
		t.Errorf("proxies %v, %v", proxies, err)
	}
	t.Setenv("TENURE_RATELIMIT_SHARED_TOKEN_PER_SECOND", "2")
	t.Setenv("TENURE_RATELIMIT_DISCOUNT_CODES_WINDOW", "30m")
	if c, err = Load(""); err != nil {
		t.Fatal(err)
	}
	limits := RateLimitConfig{
		Seller: BucketConfig{PerSecond: 0.5, Burst: 4000}, Address: BucketConfig{PerSecond: 10, Burst: 7},
		Offer: BucketConfig{PerSecond: 1, Burst: 120}, SharedToken: BucketConfig{PerSecond: 2, Burst: 60},
		DiscountCodes: DiscountAttemptsConfig{PerOffer: 10, PerAddress: 20, Window: 30 * time.Minute},
	}
	if c.RateLimit != limits {
		t.Errorf("customer limits %+v", c.RateLimit)
	}
	t.Setenv("TENURE_RATELIMIT_SELLER_BURST", "lots")
	if _, err := Load(""); err == nil || !strings.Contains(err.Error(), "TENURE_RATELIMIT_SELLER_BURST") {
		t.Errorf("a mistyped burst names its variable: %v", err)
	}
}

func TestValidateRateLimits(t *testing.T) {
	c := validConfig(t)
	c.RateLimit.Seller = BucketConfig{PerSecond: 0, Burst: 10}
	c.RateLimit.Address = BucketConfig{PerSecond: 5, Burst: 0}
	c.RateLimit.Offer = BucketConfig{PerSecond: 2_000_000, Burst: 10}
	c.RateLimit.SharedToken = BucketConfig{PerSecond: 1, Burst: 2_000_000}
	c.RateLimit.DiscountCodes = DiscountAttemptsConfig{PerOffer: 0, PerAddress: 20_000, Window: time.Second}
	c.HTTP.TrustedProxies = []string{"10.0.0.0/8", "proxy.internal"}
	err := c.Validate(NeedHTTP)
	for _, want := range []string{
		"ratelimit.seller.per_second (TENURE_RATELIMIT_SELLER_PER_SECOND)",
		"ratelimit.address.burst (TENURE_RATELIMIT_ADDRESS_BURST)",
		"ratelimit.offer.per_second (TENURE_RATELIMIT_OFFER_PER_SECOND)",
		"ratelimit.shared_token.burst (TENURE_RATELIMIT_SHARED_TOKEN_BURST)",
		"ratelimit.discount_codes.per_offer (TENURE_RATELIMIT_DISCOUNT_CODES_PER_OFFER): must be between 1 and 10000 failed attempts, got 0",
		"ratelimit.discount_codes.per_address (TENURE_RATELIMIT_DISCOUNT_CODES_PER_ADDRESS)",
		"ratelimit.discount_codes.window (TENURE_RATELIMIT_DISCOUNT_CODES_WINDOW): must be between 1m0s and 24h0m0s, got 1s",
		`http.trusted_proxies (TENURE_HTTP_TRUSTED_PROXIES): "proxy.internal"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s: %v", want, err)
		}
	}
	if err := c.Validate(NeedDatabase); err != nil {
		t.Errorf("only the API validates its limits: %v", err)
	}
}
