package config_test

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/config"
)

// Four-eyes starts above €50,000, 0 turns it off, and a negative amount is
// refused by its key.
func TestConsoleFourEyesSetting(t *testing.T) {
	c := load(t)
	c.Auth.SigningKey = strings.Repeat("k", config.MinKeyLength)
	c.Links.SigningKey = strings.Repeat("l", config.MinKeyLength)
	if c.Console.FourEyesAboveCents != 5_000_000 {
		t.Errorf("the default: %d cents, want 5,000,000", c.Console.FourEyesAboveCents)
	}
	c.Console.FourEyesAboveCents = 0
	if err := c.Validate(config.NeedHTTP); err != nil && strings.Contains(err.Error(), "four_eyes") {
		t.Errorf("0 (off) is refused: %v", err)
	}
	c.Console.FourEyesAboveCents = -1
	want := "console.four_eyes_above_cents (TENURE_CONSOLE_FOUR_EYES_ABOVE_CENTS): must be 0 (off) or an amount in cents, got -1"
	if err := c.Validate(config.NeedHTTP); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("want %q in %v", want, err)
	}
}
