package config

import "time"

// IdempotencyConfig configures how requests sent with an Idempotency-Key
// are handled (docs/calling-the-api.md, "Retries").
type IdempotencyConfig struct {
	// Lease is how long a request in flight keeps its key without news from
	// the process serving it, which renews the lease while it works; once
	// it ran out, a retry takes the request over, its process taken for dead.
	Lease time.Duration `mapstructure:"lease"`
	// TestHoldBeforeRecord is fault injection for crash tests: a request
	// whose effect is done stops before its outcome is recorded, until the
	// process is killed or shut down. Refused in production.
	TestHoldBeforeRecord bool `mapstructure:"test_hold_before_record"`
}

var idempotencyDefaults = map[string]any{
	"idempotency.lease":                   "10s",
	"idempotency.test_hold_before_record": false,
}

func (c *Config) validateIdempotency(bad func(key, format string, args ...any)) {
	if l := c.Idempotency.Lease; l < time.Second || l > 5*time.Minute {
		bad("idempotency.lease", "must be between 1s and 5m, got %s", l)
	}
	if c.Idempotency.TestHoldBeforeRecord && c.Environment == Production {
		bad("idempotency.test_hold_before_record", "is fault injection for tests and must not be set in production")
	}
}
