package config

// PayoutsConfig configures the payouts to sellers (issue 24): the fee
// Tenure keeps from the financed amount of a completed order. Payouts
// leave from the contractual entity's creditor account
// (creditors.<entity>.iban and bic; decision 0249).
type PayoutsConfig struct {
	// FeeBasisPoints is the financing fee in basis points of the financed
	// amount (the rented lines' net purchase price): 150 keeps 1.5 %.
	FeeBasisPoints int64 `mapstructure:"fee_basis_points"`
}

// payoutDefaults keep no fee.
var payoutDefaults = map[string]any{
	"payouts.fee_basis_points": 0,
}

func (c *Config) validatePayouts(bad func(key, format string, args ...any)) {
	if c.Payouts.FeeBasisPoints < 0 || c.Payouts.FeeBasisPoints > 10000 {
		bad("payouts.fee_basis_points", "must be between 0 and 10000 (100 %%), got %d", c.Payouts.FeeBasisPoints)
	}
}
