package mandates

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/sepa"
)

// ErrNotFound says an offer has no mandate.
var ErrNotFound = errors.New("the offer has no payment method")

// Mandate is a stored mandate. It holds the IBAN sealed and masked only.
type Mandate struct {
	ID      uuid.UUID
	OfferID uuid.UUID
	// SellerID is the offer's seller.
	SellerID uuid.UUID
	// ContractualEntity is the entity whose creditor the mandate names.
	ContractualEntity string
	CreditorID        sepa.CreditorID
	Reference         sepa.MandateReference
	Scheme            sepa.Scheme
	AccountHolder     string
	// IBANMasked is the debtor's IBAN as people may see it.
	IBANMasked string
	// BIC is the debtor's bank, when known ("" for IBAN-only).
	BIC sepa.BIC
	// SignedAt is the signature date, the offer's acceptance; nil until
	// the offer is accepted.
	SignedAt  *time.Time
	CreatedAt time.Time
	UpdatedAt time.Time

	sealed []byte
}

// FromRow reads a mandate from its row.
func FromRow(r dbgen.Mandate) Mandate {
	return Mandate{
		ID: r.ID, OfferID: r.OfferID, SellerID: r.SellerID, ContractualEntity: r.ContractualEntity,
		CreditorID: sepa.CreditorID(r.CreditorID), Reference: sepa.MandateReference(r.Reference), Scheme: sepa.Scheme(r.Scheme),
		AccountHolder: r.AccountHolder, IBANMasked: r.IbanMasked, BIC: sepa.BIC(r.Bic), SignedAt: r.SignedAt,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, sealed: r.IbanSealed,
	}
}

// ForOffer loads an offer's mandate; ErrNotFound when it has none.
func ForOffer(ctx context.Context, q *dbgen.Queries, offerID uuid.UUID) (Mandate, error) {
	row, err := q.GetMandateByOffer(ctx, offerID)
	if db.IsNotFound(err) {
		return Mandate{}, ErrNotFound
	}
	if err != nil {
		return Mandate{}, err
	}
	return FromRow(row), nil
}
