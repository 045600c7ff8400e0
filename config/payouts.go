package config

// PayoutsConfig configures the payouts to sellers (issue 24): the fee
// Tenure keeps from the financed amount of a completed order, and the
// accounts each contractual entity pays from.
type PayoutsConfig struct {
	// FeeBasisPoints is the financing fee in basis points of the financed
	// amount (the rented lines' net purchase price): 150 keeps 1.5 %.
	FeeBasisPoints int64 `mapstructure:"fee_basis_points"`
	// Accounts are the contractual entities' accounts payouts leave from,
	// by entity id: one credit transfer file per account and batch.
	Accounts map[string]PayoutAccountConfig `mapstructure:"accounts"`
}

// PayoutAccountConfig is an account payouts are paid from.
type PayoutAccountConfig struct {
	Name string `mapstructure:"name"`
	IBAN string `mapstructure:"iban"`
	BIC  string `mapstructure:"bic"`
}

// payoutDefaults keep no fee and pay from a placeholder account of the
// default entity, which a deployment replaces.
var payoutDefaults = map[string]any{
	"payouts.fee_basis_points": 0,
	"payouts.accounts": map[string]any{
		"tenure": map[string]any{"name": "Tenure Finance GmbH", "iban": "DE02120300000000202051", "bic": "BYLADEM1001"},
	},
}

func (c *Config) validatePayouts(bad func(key, format string, args ...any)) {
	if c.Payouts.FeeBasisPoints < 0 || c.Payouts.FeeBasisPoints > 10000 {
		bad("payouts.fee_basis_points", "must be between 0 and 10000 (100 %%), got %d", c.Payouts.FeeBasisPoints)
	}
	for id, a := range c.Payouts.Accounts {
		if a.Name == "" || a.IBAN == "" {
			bad("payouts.accounts."+id, "needs name and iban")
		}
	}
}
