package invoicing

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/sepa"
)

// Mandate is what an invoice's pre-notification names of the SEPA mandate
// its order's customer signed at checkout.
type Mandate struct {
	Reference sepa.MandateReference
	Scheme    sepa.Scheme
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
	OrderMandate(ctx context.Context, q *dbgen.Queries, orderID uuid.UUID) (Mandate, error)
}
