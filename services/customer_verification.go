package services

import (
	"context"

	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/domain/offers"
)

// requiresIDV reports whether the offer's customer must have its identity
// verified before accepting: the deployment's rules look at what buying
// every line would cost and at the customer's legal form, once given.
func (c *CustomerOffers) requiresIDV(o offers.Stored) bool {
	var purchase int64
	if o.Document.Pricing != nil {
		purchase = o.Document.Pricing.InsteadOf.Gross
	}
	var legalForm string
	if e := o.Document.EndCustomer(); e != nil {
		legalForm = e.LegalForm
	}
	return c.IDV.Applies(purchase, legalForm)
}

// Verification says where the identity verification of an offer stands.
func (c *CustomerOffers) Verification(ctx context.Context, o offers.Stored) (idv.Result, error) {
	latest, err := idv.Latest(ctx, c.Offers.Store.Queries, o.Row.SellerID, o.Row.ID)
	if err != nil {
		return "", err
	}
	return idv.Requirement(c.requiresIDV(o), latest, c.Now()), nil
}

// StartVerification returns the link to the offer's open session with the
// provider, opening a new session when none is open (idv.Start); the
// provider sends the customer back to returnURL.
func (c *CustomerOffers) StartVerification(ctx context.Context, o offers.Stored, provider idv.Provider, returnURL string) (string, error) {
	_, link, err := idv.Start(ctx, c.Offers.Store.Queries, provider, o.Row.SellerID, o.Row.ID, returnURL)
	return link, err
}

// DecideVerification records the result a provider reports for a session:
// idv.ErrUnknownSession for a session Tenure never opened, idv.ErrDecided
// for one decided with the other result already.
func (c *CustomerOffers) DecideVerification(ctx context.Context, v idv.Verdict) error {
	_, err := idv.Decide(ctx, c.Offers.Store.Queries, v)
	return err
}
