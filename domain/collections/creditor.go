package collections

import (
	"fmt"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// Creditor is the party a contractual entity collects as: its name, its
// account, its creditor identifier, and the key ring its mandates' IBANs
// are sealed with.
type Creditor struct {
	Account sepa.AccountHolder
	ID      sepa.CreditorID
	IBANs   *keyring.Ring
}

// Creditors finds a contractual entity's creditor, or says why it has
// none (a configuration mistake the run names).
type Creditors func(contractualEntity string) (Creditor, error)

// CreditorsOf are the configuration's creditors (creditors.<entity>) with
// the mandates' key ring (mandates.iban_keys). A missing creditor or key
// ring fails the run that needs it, naming the setting, not the worker's
// start: a deployment that collects nothing needs neither.
func CreditorsOf(cfg *config.Config) Creditors {
	return func(entity string) (Creditor, error) {
		c, ok := cfg.Creditor(entity)
		if !ok {
			return Creditor{}, fmt.Errorf("the contractual entity %q has no SEPA creditor: configure creditors.%s", entity, entity)
		}
		ring, err := cfg.Mandates.IBANRing()
		if err != nil {
			return Creditor{}, fmt.Errorf("mandates.iban_keys (%s): %w", config.EnvName("mandates.iban_keys"), err)
		}
		account, err := c.Account(entity)
		if err != nil {
			return Creditor{}, err
		}
		id, err := sepa.ParseCreditorID(c.CreditorID)
		if err != nil {
			return Creditor{}, fmt.Errorf("creditors.%s.creditor_id: %w", entity, err)
		}
		return Creditor{Account: account, ID: id, IBANs: ring}, nil
	}
}
