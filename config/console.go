package config

import (
	"net"
	"net/url"
	"time"

	"github.com/tenurehq/tenure/foundation/keyring"
)

// ConsoleConfig configures the console at /console/: the keys that seal
// its accounts' TOTP secrets and how long a session lasts.
type ConsoleConfig struct {
	// TOTPKeys seal the accounts' TOTP secrets at rest ("id:base64" each,
	// 32 bytes, the current key first; see package keyring). Without a
	// key the console is not served; `tenure dev` generates one.
	TOTPKeys []string `mapstructure:"totp_keys"`
	// IdleTimeout ends a session nobody used for this long.
	IdleTimeout time.Duration `mapstructure:"idle_timeout"`
	// AbsoluteTimeout ends every session this long after its sign-in.
	AbsoluteTimeout time.Duration `mapstructure:"absolute_timeout"`
	// PublicOrigin is the origin the console is opened at, to which its
	// passkeys are bound ("https://console.example.com"); empty takes
	// http.public_url's (see ConsoleOrigin).
	PublicOrigin string `mapstructure:"public_origin"`
	// InvitationTTL is how long an invitation's link may be accepted.
	InvitationTTL time.Duration `mapstructure:"invitation_ttl"`
	// FourEyesAboveCents is the amount (cents of an offer's net purchase
	// price, what it finances) above which an operator's acceptance waits
	// for a second operator's confirmation; 0 turns four-eyes off.
	FourEyesAboveCents int64 `mapstructure:"four_eyes_above_cents"`
}

// ConsoleOrigin is the origin the console's passkeys work at:
// console.public_origin, else http.public_url's origin with a loopback
// address named localhost, as WebAuthn binds passkeys to a domain name,
// never to an IP address (so `tenure dev`'s passkeys work at
// http://localhost:8080).
func (c *Config) ConsoleOrigin() string {
	if c.Console.PublicOrigin != "" {
		return c.Console.PublicOrigin
	}
	u, err := url.Parse(c.HTTP.PublicURL)
	if err != nil {
		return ""
	}
	host := u.Host
	if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsLoopback() {
		host = "localhost"
		if port := u.Port(); port != "" {
			host += ":" + port
		}
	}
	return u.Scheme + "://" + host
}

// Enabled says whether the console is served: it needs its TOTP keys.
func (c ConsoleConfig) Enabled() bool { return len(c.TOTPKeys) > 0 }

// TOTPRing is the key ring of TOTPKeys.
func (c ConsoleConfig) TOTPRing() (*keyring.Ring, error) {
	return keyring.Parse(c.TOTPKeys)
}

// consoleDefaults: a working day's session at most, closed after half an
// hour away from the desk.
var consoleDefaults = map[string]any{
	"console.totp_keys":        []string{},
	"console.idle_timeout":     30 * time.Minute,
	"console.absolute_timeout": 12 * time.Hour,
	"console.public_origin":    "",
	"console.invitation_ttl":   72 * time.Hour,
	// €50,000 financed, a size at which a second pair of eyes is usual.
	"console.four_eyes_above_cents": int64(5_000_000),
}

// validateConsole checks the console's keys, when given, and timeouts.
func (c *Config) validateConsole(bad func(key, format string, args ...any)) {
	if c.Console.Enabled() {
		if _, err := c.Console.TOTPRing(); err != nil {
			bad("console.totp_keys", "%v", err)
		}
		origin := c.ConsoleOrigin()
		u, err := url.Parse(origin)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" || u.RawQuery != "":
			bad("console.public_origin", "must be an origin such as https://console.example.com, got %q", origin)
		case net.ParseIP(u.Hostname()) != nil:
			bad("console.public_origin", "must name a host by its domain name, as passkeys take no IP address, got %q", origin)
		case u.Scheme == "http" && u.Hostname() != "localhost":
			bad("console.public_origin", "must be https (browsers offer passkeys over http only on localhost), got %q", origin)
		}
	}
	if c.Console.IdleTimeout < time.Minute {
		bad("console.idle_timeout", "must be at least 1m, got %s", c.Console.IdleTimeout)
	}
	if c.Console.AbsoluteTimeout < c.Console.IdleTimeout {
		bad("console.absolute_timeout", "must be at least console.idle_timeout (%s), got %s", c.Console.IdleTimeout, c.Console.AbsoluteTimeout)
	}
	if c.Console.InvitationTTL < 10*time.Minute || c.Console.InvitationTTL > 30*24*time.Hour {
		bad("console.invitation_ttl", "must be between 10m and 720h, got %s", c.Console.InvitationTTL)
	}
	if c.Console.FourEyesAboveCents < 0 {
		bad("console.four_eyes_above_cents", "must be 0 (off) or an amount in cents, got %d", c.Console.FourEyesAboveCents)
	}
}
