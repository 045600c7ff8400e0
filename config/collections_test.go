package config_test

import (
	"strings"
	"testing"
)

func TestCollectionSettingsAreCheckedByName(t *testing.T) {
	c := load(t)
	if h, m, err := c.Collections.RunTime(); err != nil || h != 6 || m != 0 || c.Collections.BankDays != 0 {
		t.Errorf("collection defaults: %+v (%d:%d, %v)", c.Collections, h, m, err)
	}
	t.Setenv("TENURE_COLLECTIONS_RUN_AT", "05:30")
	if h, m, _ := load(t).Collections.RunTime(); h != 5 || m != 30 {
		t.Errorf("run_at from the environment: %d:%d", h, m)
	}
	c.Collections.RunAt = "6 o'clock"
	c.Collections.BankDays = -1
	err := c.Validate(0)
	for _, key := range []string{"collections.run_at (TENURE_COLLECTIONS_RUN_AT)", "collections.bank_days (TENURE_COLLECTIONS_BANK_DAYS)"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("want a problem naming %s, got %v", key, err)
		}
	}
}
