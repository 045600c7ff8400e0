package invoicing

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/invoices"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// ChargeAdded issues the invoice of a contract's charge (a buy-out, an
// early termination, a collection fee) in the transaction that added it:
// one invoice for the charge alone. It issues nothing (nil) when the
// charge is invoiced already, by the first run of a retried change.
func (s Issuing) ChargeAdded(ctx context.Context, q *dbgen.Queries, chargeID uuid.UUID, today civil.Date) (*Issued, error) {
	charge, err := q.GetContractChargeForInvoice(ctx, chargeID)
	if err != nil || charge.InvoiceID != nil {
		return nil, err
	}
	order, err := orderOf(ctx, q, charge.SellerID, charge.OrderID)
	if err != nil {
		return nil, err
	}
	rented, err := rentedItem(order, int(charge.LinePosition))
	if err != nil {
		return nil, err
	}
	due := civil.DateOf(charge.DueDate)
	issued, err := s.issue(ctx, q, draft{order: order, kind: Charge, issueDate: today, lines: []draftLine{{
		line: invoices.Line{
			Quantity: 1, Unit: "C62",
			Price:  pricing.Money{Currency: charge.Currency, Net: charge.Net, Gross: charge.Gross, TaxRate: charge.TaxRate},
			Period: civil.Period{From: due, To: due},
		},
		describe:   func(w wording) string { return w.chargeLine(rented, contracts.ChargeKind(charge.Kind)) },
		contractID: charge.ContractID,
		chargeID:   charge.ID,
		due:        due,
	}}})
	if err != nil {
		return nil, err
	}
	return &issued, nil
}
