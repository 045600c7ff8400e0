package payouts

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/sepa"
)

// ErrSellerNotFound is a payout account set for a seller that does not
// exist.
var ErrSellerNotFound = errors.New("seller not found")

// SetAccount sets the account a seller's payouts go to, after checking
// the IBAN (ISO 13616, a SEPA country) and the BIC (optional, "" for
// none).
func SetAccount(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, rawIBAN, rawBIC string) (sepa.IBAN, error) {
	iban, err := sepa.ParseIBAN(rawIBAN)
	if err != nil {
		return sepa.IBAN{}, err
	}
	var bic sepa.BIC
	if rawBIC != "" {
		if bic, err = sepa.ParseBIC(rawBIC); err != nil {
			return sepa.IBAN{}, err
		}
	}
	unmasked := iban.Unmasked()
	n, err := q.SetSellerPayoutAccount(ctx, dbgen.SetSellerPayoutAccountParams{ID: sellerID, PayoutIban: &unmasked, PayoutBic: string(bic)})
	if err == nil && n == 0 {
		err = ErrSellerNotFound
	}
	return iban, err
}
