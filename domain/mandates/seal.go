package mandates

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// seal is the IBAN sealed for the mandate with the ring's current key,
// bound to the mandate's id so the value cannot move to another mandate.
func seal(ring *keyring.Ring, mandateID uuid.UUID, iban sepa.IBAN) []byte {
	return ring.Seal([]byte(iban.Unmasked()), mandateID[:])
}

// Open is the mandate's IBAN, unsealed with any key of the ring: for the
// collection file only. It never goes into a log, a trace, an event or
// an answer.
func Open(ring *keyring.Ring, m Mandate) (string, error) {
	plain, err := ring.Open(m.sealed, m.ID[:])
	if err != nil {
		return "", fmt.Errorf("mandate %s: the IBAN does not open: %w", m.ID, err)
	}
	return string(plain), nil
}
