package collections

import (
	"fmt"

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

// Creditors finds a contractual entity's creditor; an entity without one
// is a configuration mistake the run names.
type Creditors func(contractualEntity string) (Creditor, bool)

// creditorOf is the creditor of an entity, or an error naming the entity.
func (c Creditors) creditorOf(entity string) (Creditor, error) {
	if c != nil {
		if cr, ok := c(entity); ok {
			return cr, nil
		}
	}
	return Creditor{}, fmt.Errorf("the contractual entity %q has no SEPA creditor configured", entity)
}
