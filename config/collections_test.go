package config_test

import (
	"slices"
	"strings"
	"testing"
)

func TestCollectionSettingsAreCheckedByName(t *testing.T) {
	c := load(t)
	if h, m, err := c.Collections.RunTime(); err != nil || h != 6 || m != 0 || c.Collections.BankDays != 0 {
		t.Errorf("collection defaults: %+v (%d:%d, %v)", c.Collections, h, m, err)
	}
	if !slices.Equal(c.Collections.DunningDays, []int{7, 14, 28}) || c.Collections.BaseRateBP != 127 {
		t.Errorf("dunning defaults: %+v", c.Collections)
	}
	t.Setenv("TENURE_COLLECTIONS_RUN_AT", "05:30")
	t.Setenv("TENURE_COLLECTIONS_DUNNING_DAYS", "5,10,20")
	got := load(t).Collections
	if h, m, _ := got.RunTime(); h != 5 || m != 30 || !slices.Equal(got.DunningDays, []int{5, 10, 20}) {
		t.Errorf("settings from the environment: %+v", got)
	}
	c.Collections.RunAt = "6 o'clock"
	c.Collections.BankDays = -1
	c.Collections.DunningDays = []int{14, 7}
	c.Collections.BaseRateBP = 5000
	err := c.Validate(0)
	for _, key := range []string{"collections.run_at (TENURE_COLLECTIONS_RUN_AT)", "collections.bank_days (TENURE_COLLECTIONS_BANK_DAYS)",
		"collections.dunning_days (TENURE_COLLECTIONS_DUNNING_DAYS)", "collections.base_rate_bp (TENURE_COLLECTIONS_BASE_RATE_BP)"} {
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("want a problem naming %s, got %v", key, err)
		}
	}
}
