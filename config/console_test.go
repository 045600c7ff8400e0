package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
)

// The console is off without TOTP keys and on with them; its keys and
// timeouts are checked with the HTTP settings, each problem by its key.
func TestConsoleSettings(t *testing.T) {
	c := load(t)
	c.Auth.SigningKey = strings.Repeat("k", config.MinKeyLength)
	c.Links.SigningKey = strings.Repeat("l", config.MinKeyLength)
	if c.Console.Enabled() || c.Console.IdleTimeout != 30*time.Minute || c.Console.AbsoluteTimeout != 12*time.Hour ||
		c.Console.InvitationTTL != 72*time.Hour {
		t.Errorf("the defaults: %+v", c.Console)
	}
	if err := c.Validate(config.NeedHTTP); err != nil && strings.Contains(err.Error(), "console.") {
		t.Errorf("the defaults are refused: %v", err)
	}
	c.Console.TOTPKeys = []string{testIBANKey}
	if !c.Console.Enabled() {
		t.Error("a key does not enable the console")
	}
	c.Console.TOTPKeys = []string{"k-1:c2hvcnQ="}
	c.Console.IdleTimeout = time.Second
	c.Console.AbsoluteTimeout = 0
	c.Console.InvitationTTL = time.Minute
	err := c.Validate(config.NeedHTTP)
	for _, want := range []string{
		`console.totp_keys (TENURE_CONSOLE_TOTP_KEYS): key 1: key "k-1": the secret has 5 bytes`,
		"console.idle_timeout (TENURE_CONSOLE_IDLE_TIMEOUT): must be at least 1m, got 1s",
		"console.absolute_timeout (TENURE_CONSOLE_ABSOLUTE_TIMEOUT): must be at least console.idle_timeout (1s), got 0s",
		"console.invitation_ttl (TENURE_CONSOLE_INVITATION_TTL): must be between 10m and 720h, got 1m0s",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
}

// The console's passkeys are bound to console.public_origin, else to
// http.public_url's origin with a loopback address named localhost;
// an IP address, a path or plain http elsewhere than localhost is refused.
func TestConsoleOrigin(t *testing.T) {
	c := load(t)
	c.Auth.SigningKey = strings.Repeat("k", config.MinKeyLength)
	c.Links.SigningKey = strings.Repeat("l", config.MinKeyLength)
	c.Console.TOTPKeys = []string{testIBANKey}
	for publicURL, want := range map[string]string{
		"http://127.0.0.1:8080":        "http://localhost:8080",
		"http://[::1]:8080":            "http://localhost:8080",
		"https://api.example.com":      "https://api.example.com",
		"https://api.example.com:8443": "https://api.example.com:8443",
	} {
		c.HTTP.PublicURL = publicURL
		if got := c.ConsoleOrigin(); got != want {
			t.Errorf("public URL %s: origin %q, want %q", publicURL, got, want)
		}
		if err := c.Validate(config.NeedHTTP); err != nil && strings.Contains(err.Error(), "console.") {
			t.Errorf("public URL %s refused: %v", publicURL, err)
		}
	}
	c.Console.PublicOrigin = "https://console.example.com"
	if got := c.ConsoleOrigin(); got != "https://console.example.com" {
		t.Errorf("the configured origin: %q", got)
	}
	for origin, want := range map[string]string{
		"https://10.0.0.5":            "by its domain name",
		"http://console.example.com":  "must be https",
		"https://example.com/console": "must be an origin",
	} {
		c.Console.PublicOrigin = origin
		if err := c.Validate(config.NeedHTTP); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("origin %s: want %q in %v", origin, want, err)
		}
	}
}
