package invoicing

import (
	"context"
	"errors"
	"fmt"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/mandates"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// Mandate is what an invoice's pre-notification names of the SEPA mandate
// its order's customer signed at checkout.
type Mandate struct {
	// CreditorID is the creditor the mandate names; empty takes the
	// issuer's.
	CreditorID sepa.CreditorID
	Reference  sepa.MandateReference
	Scheme     sepa.Scheme
	// DebtorIBAN is the customer's account; invoices print it masked.
	DebtorIBAN sepa.IBAN
}

// ErrNotInvoiceable is an order whose invoice cannot be issued as it
// stands: no mandate to announce the debit under, or data the invoice
// needs missing (a billing address). Issuing takes no number then, so the
// series keeps no gap; the change that caused it goes on (its journal is
// posted) and the installment or charge stays uninvoiced.
var ErrNotInvoiceable = errors.New("no invoice can be issued")

// ErrNoMandate is the answer of Mandates for an order whose customer
// signed no mandate.
var ErrNoMandate = fmt.Errorf("%w: the order has no SEPA mandate", ErrNotInvoiceable)

// Mandates finds the mandate of an order, in the transaction that issues
// its invoice. The mandates at checkout (issue 24) implement it.
type Mandates interface {
	OrderMandate(ctx context.Context, q *dbgen.Queries, order dbgen.Order) (Mandate, error)
}

// CheckoutMandates are the mandates customers give at checkout (package
// mandates): an order's is its offer's, once the acceptance signed it.
type CheckoutMandates struct {
	// Ring opens the debtor's IBAN (mandates.iban_keys); invoices print
	// it masked.
	Ring *keyring.Ring
}

// OrderMandate is the signed mandate of an order's offer, or ErrNoMandate.
func (c CheckoutMandates) OrderMandate(ctx context.Context, q *dbgen.Queries, order dbgen.Order) (Mandate, error) {
	m, err := mandates.ForOffer(ctx, q, order.OfferID)
	if errors.Is(err, mandates.ErrNotFound) || (err == nil && m.SignedAt == nil) {
		return Mandate{}, ErrNoMandate
	}
	if err != nil {
		return Mandate{}, err
	}
	raw, err := mandates.Open(c.Ring, m)
	if err != nil {
		return Mandate{}, err
	}
	iban, err := sepa.ParseIBAN(raw)
	if err != nil {
		return Mandate{}, fmt.Errorf("mandate %s: %w", m.ID, err)
	}
	return Mandate{CreditorID: m.CreditorID, Reference: m.Reference, Scheme: m.Scheme, DebtorIBAN: iban}, nil
}
