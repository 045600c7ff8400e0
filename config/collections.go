package config

import "time"

// CollectionsConfig configures the daily collection run.
type CollectionsConfig struct {
	// RunAt is the time of day ("06:00", contracts.timezone) the daily run
	// starts: early enough that its files reach the bank before its
	// cut-off.
	RunAt string `mapstructure:"run_at"`
	// BankDays are the creditor's bank's own business days of lead time,
	// on top of the scheme's D-1.
	BankDays int `mapstructure:"bank_days"`
}

// collectionDefaults run at six in the morning with a bank that takes
// files up to the day before the collection.
var collectionDefaults = map[string]any{
	"collections.run_at":    "06:00",
	"collections.bank_days": 0,
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
}
