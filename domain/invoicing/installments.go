package invoicing

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/invoices"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// LockOrder orders the invoicing of an order's installments until the
// transaction ends: two contracts of one order falling due at once
// invoice one after the other. A transaction that also moves installments
// (a buy-out) takes it before it moves the first one, so that neither
// waits for a row the other holds while holding the lock.
func LockOrder(ctx context.Context, q *dbgen.Queries, orderID uuid.UUID) error {
	return q.LockOrderInvoicing(ctx, orderID)
}

// InstallmentDue issues the invoice of an installment that fell due, in a
// transaction holding LockOrder (the one after the change that made it
// due, or a buy-out's own): one invoice for
// every installment of its order due in the same month that no invoice
// bills yet and that is scheduled or due. It issues nothing (nil) when an
// invoice bills the installment already: the month's invoice of another of
// the order's contracts, or the first run of a retried change.
func (s Issuing) InstallmentDue(ctx context.Context, q *dbgen.Queries, contract dbgen.RentalContract, inst contracts.Installment, today civil.Date) (*Issued, error) {
	invoiceID, err := q.GetInstallmentInvoice(ctx, dbgen.GetInstallmentInvoiceParams{ContractID: contract.ID, Number: int32(inst.Number)})
	if err != nil || invoiceID != nil {
		return nil, err
	}
	order, err := orderOf(ctx, q, contract.SellerID, contract.OrderID)
	if err != nil {
		return nil, err
	}
	month, err := civil.NewDate(inst.DueDate.Year(), inst.DueDate.Month(), 1)
	if err != nil {
		return nil, err
	}
	rows, err := q.ListInvoiceableInstallments(ctx, dbgen.ListInvoiceableInstallmentsParams{
		OrderID: contract.OrderID, DueFrom: month.Midnight(time.UTC), DueUntil: month.AddMonths(1).Midnight(time.UTC),
	})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	d := draft{order: order, kind: Installments, period: &month, issueDate: today}
	for _, r := range rows {
		rented, err := rentedItem(order, int(r.LinePosition))
		if err != nil {
			return nil, err
		}
		number := int(r.Number)
		d.lines = append(d.lines, draftLine{
			line: invoices.Line{
				Quantity: 1, Unit: "MON",
				Price:  pricing.Money{Currency: r.Currency, Net: r.Net, Gross: r.Gross, TaxRate: r.TaxRate},
				Period: civil.Period{From: civil.DateOf(r.PeriodFrom), To: civil.DateOf(r.PeriodTo)},
			},
			describe:          func(w wording) string { return w.installmentLine(rented, number) },
			contractID:        r.ContractID,
			installmentNumber: number,
			due:               civil.DateOf(r.DueDate),
		})
	}
	issued, err := s.issue(ctx, q, d)
	if err != nil {
		return nil, err
	}
	return &issued, nil
}

// orderOf is an order with its document: what an invoice names of it (its
// lines, its customer), without the assets and shipments orders.Load adds.
func orderOf(ctx context.Context, q *dbgen.Queries, sellerID, orderID uuid.UUID) (orders.Stored, error) {
	row, err := q.GetOrder(ctx, dbgen.GetOrderParams{SellerID: sellerID, ID: orderID})
	if err != nil {
		return orders.Stored{}, err
	}
	return orders.Decode(row, nil, nil)
}

// rentedItem names what an order's line rents.
func rentedItem(order orders.Stored, position int) (string, error) {
	if position < 0 || position >= len(order.Document.Lines) {
		return "", fmt.Errorf("order %s has no line %d to invoice", order.Row.ID, position)
	}
	line := order.Document.Lines[position]
	return item(line.Title, line.Quantity), nil
}
