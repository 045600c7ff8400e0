package invoicing

import (
	"context"
	"errors"

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

// ErrNoMandate is the answer of Mandates for an order whose customer
// signed no mandate.
var ErrNoMandate = errors.New("the order has no SEPA mandate")

// Mandates finds the mandate of an order, in the transaction that issues
// its invoice. The mandates at checkout (issue 24) implement it.
type Mandates interface {
	OrderMandate(ctx context.Context, q *dbgen.Queries, orderID uuid.UUID) (Mandate, error)
}
