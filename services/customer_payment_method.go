package services

import (
	"context"
	"errors"
	"fmt"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/endcustomer"
	"github.com/tenurehq/tenure/domain/mandates"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/sepa"
)

// ErrNoCreditor says the seller's contractual entity has no creditor
// configured, so no mandate can name one.
var ErrNoCreditor = errors.New("the seller's contractual entity collects no direct debits")

// Creditor is the creditor the offer's mandate names: the seller's
// contractual entity's.
func (c *CustomerOffers) Creditor(terms SellerTerms) (config.Creditor, bool) {
	return c.Creditors(terms.Entity)
}

// PaymentMethod is the offer's mandate; mandates.ErrNotFound when the
// customer gave none.
func (c *CustomerOffers) PaymentMethod(ctx context.Context, o offers.Stored) (mandates.Mandate, error) {
	return mandates.ForOffer(ctx, c.Offers.Store.Queries, o.Row.ID)
}

// SetPaymentMethod stores the customer's SEPA direct-debit mandate for the
// offer, under the creditor of the seller's contractual entity; a bad
// IBAN, holder or a mandate not agreed to is a *ValidationFailed naming
// the field. A customer may give one whether the seller requires it or
// not; it is signed when the offer is accepted.
func (c *CustomerOffers) SetPaymentMethod(ctx context.Context, o offers.Stored, p mandates.PaymentMethod) (mandates.Mandate, error) {
	debtor, problems := mandates.Check(p)
	if len(problems) > 0 {
		return mandates.Mandate{}, invalidFields("the payment method", problems)
	}
	terms, err := c.Seller(ctx, o)
	if err != nil {
		return mandates.Mandate{}, err
	}
	creditor, ok := c.Creditor(terms)
	if !ok {
		return mandates.Mandate{}, fmt.Errorf("%w (%s)", ErrNoCreditor, terms.Entity)
	}
	// The configuration was checked at start-up (NeedMandates).
	id, err := sepa.ParseCreditorID(creditor.CreditorID)
	if err != nil {
		return mandates.Mandate{}, err
	}
	scheme, err := sepa.ParseScheme(creditor.Scheme)
	if err != nil {
		return mandates.Mandate{}, err
	}
	return mandates.Give(ctx, c.Offers.Store, c.IBANs, mandates.Gift{
		OfferID: o.Row.ID, SellerID: o.Row.SellerID, ContractualEntity: terms.Entity,
		CreditorID: id, Scheme: scheme, Debtor: debtor,
	})
}

// paid refuses the acceptance of an offer whose seller requires a
// payment method the customer has not given.
func (c *CustomerOffers) paid(ctx context.Context, o offers.Stored, terms SellerTerms) error {
	if !terms.Seller.PaymentMethodRequired {
		return nil
	}
	_, err := c.PaymentMethod(ctx, o)
	if errors.Is(err, mandates.ErrNotFound) {
		return invalidFields("the offer cannot be accepted yet", []endcustomer.FieldError{{
			Code: endcustomer.CodeRequired, Field: "payment_method",
			Message: "the seller requires a payment method: give a SEPA direct debit mandate first (PUT /offers/{id}/payment-method)",
		}})
	}
	return err
}
