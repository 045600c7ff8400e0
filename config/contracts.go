package config

import (
	"time"
	// Contracts count days in a named location: the zone database is
	// built in, so a container without one reads it all the same.
	_ "time/tzdata"
)

// ContractsConfig configures how rental contracts run: the location
// whose days they count in, and the policy of their end (notice, buy-out,
// extension, early termination). contracts.PolicyOf reads the policy and
// checks it, naming each setting out of its range: package contracts
// knows the ranges, and it cannot be imported here.
type ContractsConfig struct {
	// Timezone is the IANA location whose midnight starts a contract's day:
	// installments, notices and ends fire then, and a shipment's date is
	// its day there.
	Timezone                         string `mapstructure:"timezone"`
	NoticeDays                       int    `mapstructure:"notice_days"`
	ResidualBasisPoints              int64  `mapstructure:"residual_basis_points"`
	ExtensionMonths                  int    `mapstructure:"extension_months"`
	ExtensionRateBasisPoints         int64  `mapstructure:"extension_rate_basis_points"`
	TerminationYearlyRateBasisPoints int64  `mapstructure:"termination_yearly_rate_basis_points"`
	TerminationFeeNet                int64  `mapstructure:"termination_fee_net"`
	QuoteValidityDays                int    `mapstructure:"quote_validity_days"`
}

// contractDefaults are contracts.DefaultPolicy's values (a test holds
// them equal) in Berlin.
var contractDefaults = map[string]any{
	"contracts.timezone":                             "Europe/Berlin",
	"contracts.notice_days":                          90,
	"contracts.residual_basis_points":                1000,
	"contracts.extension_months":                     12,
	"contracts.extension_rate_basis_points":          7000,
	"contracts.termination_yearly_rate_basis_points": 500,
	"contracts.termination_fee_net":                  0,
	"contracts.quote_validity_days":                  14,
}

// Location is the location of Timezone.
func (c ContractsConfig) Location() (*time.Location, error) {
	return time.LoadLocation(c.Timezone)
}

func (c *Config) validateContracts(bad func(key, format string, args ...any)) {
	if c.Contracts.Timezone == "" {
		bad("contracts.timezone", "must name an IANA time zone such as Europe/Berlin")
	} else if _, err := c.Contracts.Location(); err != nil {
		bad("contracts.timezone", "%q is not an IANA time zone such as Europe/Berlin", c.Contracts.Timezone)
	}
}
