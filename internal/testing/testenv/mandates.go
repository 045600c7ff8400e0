package testenv

import (
	"context"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/sepa"
)

// Mandates give every order the same SEPA Core mandate, for tests that
// issue invoices before the checkout's mandates exist: the test workers
// and the contract fixtures.
type Mandates struct{}

// OrderMandate is the fixture mandate, its reference derived from the
// order.
func (Mandates) OrderMandate(_ context.Context, _ *dbgen.Queries, order dbgen.Order) (invoicing.Mandate, error) {
	iban, err := sepa.ParseIBAN("DE89 3704 0044 0532 0130 00")
	if err != nil {
		return invoicing.Mandate{}, err
	}
	return invoicing.Mandate{Reference: sepa.MandateReferenceFor(order.ID), Scheme: sepa.Core, DebtorIBAN: iban}, nil
}
