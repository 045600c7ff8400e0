package config

import (
	"net/netip"
	"slices"
	"strings"
	"testing"
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
	t.Setenv("TENURE_RATELIMIT_SELLER_BURST", "lots")
	if _, err := Load(""); err == nil || !strings.Contains(err.Error(), "TENURE_RATELIMIT_SELLER_BURST") {
		t.Errorf("a mistyped burst names its variable: %v", err)
	}
}

func TestValidateRateLimits(t *testing.T) {
	c := validConfig(t)
	c.RateLimit.Seller = BucketConfig{PerSecond: 0, Burst: 10}
	c.RateLimit.Address = BucketConfig{PerSecond: 5, Burst: 0}
	c.HTTP.TrustedProxies = []string{"10.0.0.0/8", "proxy.internal"}
	err := c.Validate(NeedHTTP)
	for _, want := range []string{
		"ratelimit.seller.per_second (TENURE_RATELIMIT_SELLER_PER_SECOND)",
		"ratelimit.address.burst (TENURE_RATELIMIT_ADDRESS_BURST)",
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
