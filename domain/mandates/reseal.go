package mandates

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// resealPage is how many mandates one query reads while resealing.
const resealPage = 500

// Reseal seals again with the ring's current key every IBAN sealed with
// an older one, and says how many it changed: after it, the older keys
// can leave mandates.iban_keys. A mandate changed meanwhile keeps its
// newer value (it was sealed with the current key); running it again
// changes nothing.
func Reseal(ctx context.Context, store *db.Store, ring *keyring.Ring) (int, error) {
	changed := 0
	after := uuid.Nil
	for {
		page, err := store.ListMandatesAfter(ctx, dbgen.ListMandatesAfterParams{After: after, PageSize: resealPage})
		if err != nil {
			return changed, err
		}
		for _, m := range page {
			resealed, moved, err := ring.Reseal(m.IbanSealed, m.ID[:])
			if err != nil {
				return changed, fmt.Errorf("mandate %s: %w", m.ID, err)
			}
			if !moved {
				continue
			}
			n, err := store.ResealMandateIBAN(ctx, dbgen.ResealMandateIBANParams{ID: m.ID, Sealed: m.IbanSealed, Resealed: resealed})
			if err != nil {
				return changed, err
			}
			changed += int(n)
		}
		if len(page) < resealPage {
			return changed, nil
		}
		after = page[len(page)-1].ID
	}
}
