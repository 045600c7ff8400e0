package config

import (
	"slices"
	"time"
)

// CollectionsConfig configures the daily collection run.
type CollectionsConfig struct {
	// RunAt is the time of day ("06:00", contracts.timezone) the daily run
	// starts: early enough that its files reach the bank before its
	// cut-off.
	RunAt string `mapstructure:"run_at"`
	// BankDays are the creditor's bank's own business days of lead time,
	// on top of the scheme's D-1.
	BankDays int `mapstructure:"bank_days"`
	// DunningDays are the reminder stages, in days after an installment
	// failed: the second adds the fees, the last defaults the contract.
	DunningDays []int `mapstructure:"dunning_days"`
	// BaseRateBP is the Bundesbank's base rate (§247 BGB) in basis points,
	// which default interest adds 9 points to (§288 (2) BGB); it changes
	// on 1 January and 1 July.
	BaseRateBP int64 `mapstructure:"base_rate_bp"`
}

// collectionDefaults run at six in the morning with a bank that takes
// files up to the day before the collection.
var collectionDefaults = map[string]any{
	"collections.run_at":       "06:00",
	"collections.bank_days":    0,
	"collections.dunning_days": []int{7, 14, 28},
	"collections.base_rate_bp": 127,
}

// RunTime is RunAt as hours and minutes after midnight.
func (c CollectionsConfig) RunTime() (hour, minute int, err error) {
	t, err := time.Parse("15:04", c.RunAt)
	if err != nil {
		return 0, 0, err
	}
	return t.Hour(), t.Minute(), nil
}

func (c *Config) validateCollections(bad func(key, format string, args ...any)) {
	if _, _, err := c.Collections.RunTime(); err != nil {
		bad("collections.run_at", "must be a time of day HH:MM such as 06:00, got %q", c.Collections.RunAt)
	}
	if c.Collections.BankDays < 0 || c.Collections.BankDays > 5 {
		bad("collections.bank_days", "must be between 0 and 5 business days, got %d", c.Collections.BankDays)
	}
	if d := c.Collections.DunningDays; len(d) < 2 || d[0] < 1 || !slices.IsSorted(d) || len(slices.Compact(slices.Clone(d))) != len(d) {
		bad("collections.dunning_days", "must list at least two increasing days after a failure such as 7,14,28, got %v", d)
	}
	if c.Collections.BaseRateBP < -1000 || c.Collections.BaseRateBP > 2000 {
		bad("collections.base_rate_bp", "must be a base rate between -1000 and 2000 basis points, got %d", c.Collections.BaseRateBP)
	}
}
