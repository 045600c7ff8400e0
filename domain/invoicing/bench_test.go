package invoicing_test

import (
	"testing"
	"time"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// BenchmarkIssue10kInvoices issues 10,000 invoices the way installments
// falling due issue them: each in its own transaction, the order locked,
// its month's installments read, the customer and mandate looked up, the
// number taken, the PDF and the CII e-invoice rendered and everything
// stored. The installments are one contract's, one a month, so each
// month's invoice bills one. Run it with
//
//	make bench-invoices
func BenchmarkIssue10kInvoices(b *testing.B) {
	const n = 10_000
	f := contracttest.New(b, testenv.Database(b), nil)
	issuing := f.Invoicing()
	orderID := f.Order(b, "bench", contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 100000, MonthlyNet: 3000, Months: 12, Rented: true})
	contractID := f.Confirm(b, orderID)[0]
	ctx := b.Context()
	for b.Loop() {
		b.StopTimer()
		for _, stmt := range []string{
			"DELETE FROM invoice_lines", "DELETE FROM invoice_documents", "UPDATE contract_installments SET invoice_id = NULL",
			"DELETE FROM invoices", "DELETE FROM invoice_counters",
		} {
			if _, err := f.Store.Pool.Exec(ctx, stmt); err != nil {
				b.Fatal(err)
			}
		}
		_, err := f.Store.Pool.Exec(ctx, `
			INSERT INTO contract_installments (contract_id, number, period_from, period_to, due_date, currency, net, gross, tax_rate, status)
			SELECT $1, i, d, (d + interval '1 month' - interval '1 day')::date, d, 'EUR', 3000, 3570, 1900, 'due'
			FROM generate_series(1, $2::int) i, LATERAL (SELECT (date '2026-01-05' + (i - 1) * interval '1 month')::date AS d) m
			ON CONFLICT DO NOTHING`, contractID, n)
		if err != nil {
			b.Fatal(err)
		}
		row, err := f.Store.GetRentalContract(ctx, dbgen.GetRentalContractParams{SellerID: f.SellerID, ID: contractID})
		if err != nil {
			b.Fatal(err)
		}
		start := civil.DateOf(time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC))
		b.StartTimer()
		for i := range n {
			due := start.AddMonths(i)
			inst := contracts.Installment{Number: i + 1, DueDate: due, Status: contracts.InstallmentDue}
			err := f.Store.InTx(ctx, func(q *dbgen.Queries) error {
				issued, err := issuing.InstallmentDue(ctx, q, row, inst, due)
				if err == nil && issued == nil {
					b.Fatalf("installment %d: no invoice", i+1)
				}
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/n, "µs/invoice")
}
