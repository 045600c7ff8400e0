package mandates

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// openStatus is the status of an offer whose customer may still change it.
const openStatus = "created"

// Gift is a mandate as the customer gives it for an offer, under the
// creditor of the seller's contractual entity.
type Gift struct {
	OfferID           uuid.UUID
	SellerID          uuid.UUID
	ContractualEntity string
	CreditorID        sepa.CreditorID
	Scheme            sepa.Scheme
	Debtor            Debtor
}

// Give stores the offer's mandate, or replaces the debtor of the one
// given before (which keeps its id and reference), sealing the IBAN with
// the ring's current key. The offer's row is locked, so the mandate is
// stored before the offer's acceptance or refused after it: an offer that
// is not open any more is a refusal (StatusNotAllowed).
func Give(ctx context.Context, store *db.Store, ring *keyring.Ring, g Gift) (Mandate, error) {
	var given Mandate
	err := store.InTx(ctx, func(q *dbgen.Queries) error {
		status, err := q.LockOfferStatus(ctx, g.OfferID)
		if err != nil {
			return err
		}
		if status != openStatus {
			return refusal.New(refusal.StatusNotAllowed, "offers with status=%s cannot change their payment method", status)
		}
		id, err := uuid.NewV7()
		if err != nil {
			return err
		}
		existing, err := q.GetMandateByOfferForUpdate(ctx, g.OfferID)
		switch {
		case err == nil:
			id = existing.ID
		case !db.IsNotFound(err):
			return err
		}
		row, err := q.PutMandate(ctx, dbgen.PutMandateParams{
			ID: id, OfferID: g.OfferID, SellerID: g.SellerID, ContractualEntity: g.ContractualEntity,
			CreditorID: string(g.CreditorID), Reference: string(sepa.MandateReferenceFor(id)), Scheme: string(g.Scheme),
			AccountHolder: g.Debtor.AccountHolder, IbanSealed: seal(ring, id, g.Debtor.IBAN), IbanMasked: g.Debtor.IBAN.Masked(),
		})
		if err != nil {
			return err
		}
		given = FromRow(row)
		return nil
	})
	return given, err
}
