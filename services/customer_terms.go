package services

import (
	"context"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/terms"
)

// TermsDocuments are the terms and conditions documents of the offer's
// seller by language: the deployment's, as the operator replaced them for
// the seller, and the seller's own. A seller that no longer exists is
// ErrSellerNotFound.
func (c *CustomerOffers) TermsDocuments(ctx context.Context, o offers.Stored) (terms.Documents, error) {
	profile, err := c.Sellers.Profile(ctx, o.Row.SellerID)
	if err != nil {
		return nil, err
	}
	return terms.Assemble(c.Terms, profile.TermsDocuments), nil
}
