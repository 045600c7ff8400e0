package customer

import (
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/mandates"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/services"
)

// customerPayment serves the offer's payment method, a SEPA direct debit
// mandate. Its answers carry the IBAN masked only.
type customerPayment struct {
	offers *services.CustomerOffers
}

// GetPaymentMethod implements getPaymentMethod.
func (p customerPayment) GetPaymentMethod(ctx context.Context, r customerapi.GetPaymentMethodRequestObject) (customerapi.GetPaymentMethodResponseObject, error) {
	o, err := bearerOffer(ctx, p.offers, r.Id)
	if err != nil {
		return nil, err
	}
	m, err := p.offers.PaymentMethod(ctx, o)
	if errors.Is(err, mandates.ErrNotFound) {
		return nil, apierror.NotFound("offer %s has no payment method", o.Row.ID)
	}
	if err != nil {
		return nil, err
	}
	v, err := p.view(m)
	return customerapi.GetPaymentMethod200JSONResponse(v), err
}

// SetPaymentMethod implements setPaymentMethod.
func (p customerPayment) SetPaymentMethod(ctx context.Context, r customerapi.SetPaymentMethodRequestObject) (customerapi.SetPaymentMethodResponseObject, error) {
	o, err := bearerOffer(ctx, p.offers, r.Id)
	if err != nil {
		return nil, err
	}
	m, err := p.offers.SetPaymentMethod(ctx, o, mandates.PaymentMethod{
		IBAN: r.Body.Iban, AccountHolder: r.Body.AccountHolder, MandateAccepted: r.Body.MandateAccepted,
	})
	if err != nil {
		return nil, customerOfferError(err)
	}
	v, err := p.view(m)
	return customerapi.SetPaymentMethod200JSONResponse(v), err
}

// view is the mandate as the customer sees it, with its creditor as
// configured now (the identifier and scheme as stored with the mandate).
func (p customerPayment) view(m mandates.Mandate) (customerapi.PaymentMethod, error) {
	creditor, ok := p.offers.Creditors(m.ContractualEntity)
	if !ok {
		return customerapi.PaymentMethod{}, services.ErrNoCreditor
	}
	c := paymentCreditorView(creditor)
	c.CreditorIdentifier, c.Scheme = string(m.CreditorID), customerapi.PaymentCreditorScheme(m.Scheme)
	return customerapi.PaymentMethod{
		Type: customerapi.PaymentMethodTypeSepaDirectDebit, Iban: m.IBANMasked, AccountHolder: m.AccountHolder,
		MandateReference: string(m.Reference), Creditor: c, SignedAt: m.SignedAt,
	}, nil
}

// paymentCreditorView is a contractual entity's creditor as the customer
// sees it, its identifier and scheme written as a mandate stores them
// (the configuration may have spaces or lower case).
func paymentCreditorView(c config.Creditor) customerapi.PaymentCreditor {
	v := customerapi.PaymentCreditor{Name: c.LegalName, CreditorIdentifier: c.CreditorID, Scheme: customerapi.PaymentCreditorScheme(c.Scheme)}
	if id, err := sepa.ParseCreditorID(c.CreditorID); err == nil {
		v.CreditorIdentifier = string(id)
	}
	if scheme, err := sepa.ParseScheme(c.Scheme); err == nil {
		v.Scheme = customerapi.PaymentCreditorScheme(scheme)
	}
	return v
}
