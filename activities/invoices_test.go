package activities_test

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
	"github.com/tenurehq/tenure/workflows/contract"
)

// ciiSchema is the vendored CII D16B schema the e-invoices must meet.
const ciiSchema = "../domain/invoices/testdata/cii/CrossIndustryInvoice_100pD16B.xsd"

// bikes is a second rented line: one e-bike for 24 months at 80.00 net.
var bikes = contracttest.Line{Reference: "bike", Quantity: 1, UnitNet: 250000, MonthlyNet: 8000, Months: 24, Rented: true}

// started starts a confirmed contract's term on a day.
func started(t *testing.T, f *contracttest.Fixture, id uuid.UUID, on string) {
	t.Helper()
	start := day(t, on)
	twice(t, f.Contracts.Start, activities.ContractStart{ContractTransition: rowOf(f, id, contracts.AwaitingDelivery, contract.Deliver, start), On: start})
}

// fallDue makes a running contract's installments due through a day, twice.
func fallDue(t *testing.T, f *contracttest.Fixture, id uuid.UUID, through string) {
	t.Helper()
	d := day(t, through)
	twice(t, f.Contracts.FallDue, activities.ContractFallingDue{ContractTransition: rowOf(f, id, contracts.Running, contract.FallDue, d), Through: d})
}

// orderInvoices are an order's invoices, oldest first, each of whose
// documents is checked: the PDF is one, the e-invoice meets the schema
// and names the contractual entity's creditor as the seller.
func orderInvoices(t *testing.T, f *contracttest.Fixture, orderID uuid.UUID) []invoicing.Record {
	t.Helper()
	creditor, _ := f.Config.Creditor("")
	seller := "<ram:SellerTradeParty><ram:Name>" + creditor.LegalName + "</ram:Name>"
	list, _, err := invoicing.List(t.Context(), f.Store.Queries, f.SellerID, invoicing.ListFilter{OrderID: &orderID, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, inv := range list {
		pdf, err := f.Store.GetInvoiceDocument(t.Context(), dbgen.GetInvoiceDocumentParams{InvoiceID: inv.ID, Format: "pdf"})
		if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
			t.Errorf("invoice %s: pdf %.10q (%v)", inv.Number, pdf, err)
		}
		xml, err := f.Store.GetInvoiceDocument(t.Context(), dbgen.GetInvoiceDocumentParams{InvoiceID: inv.ID, Format: "xml"})
		if err != nil {
			t.Fatal(err)
		}
		xmllint.Validate(t, ciiSchema, xml)
		if !bytes.Contains(xml, []byte(seller)) || !bytes.Contains(xml, []byte("<ram:LineOne>"+creditor.Address.Line1+"</ram:LineOne>")) {
			t.Errorf("invoice %s: the seller is not the creditor %q, %q", inv.Number, creditor.LegalName, creditor.Address.Line1)
		}
	}
	return list
}

// balanced fails the test unless the book's invariants hold: every
// journal balances, each contract's receivable is what it owes.
func balanced(t *testing.T, f *contracttest.Fixture) {
	t.Helper()
	if err := ledger.Check(t.Context(), f.Store.Queries); err != nil {
		t.Error(err)
	}
}

// journals counts the journals posted.
func journals(t *testing.T, f *contracttest.Fixture) int {
	t.Helper()
	var n int
	if err := f.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM ledger_journals").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Two contracts of one order falling due in the same month share one
// invoice: the first to fall due bills both, the second finds its
// installment billed. A retried change issues nothing more; the next month
// takes the entity's next number.
func TestOneInvoicePerOrderAndMonth(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	f.Invoicing()
	orderID := f.Order(t, "ref-invoices", laptops, bikes)
	ids := f.Confirm(t, orderID)
	started(t, f, ids[0], "2026-11-03")
	started(t, f, ids[1], "2026-11-10")

	fallDue(t, f, ids[0], "2026-11-03")
	fallDue(t, f, ids[1], "2026-11-10")
	list := orderInvoices(t, f, orderID)
	if len(list) != 1 {
		t.Fatalf("%d invoices, want 1: %+v", len(list), list)
	}
	inv := list[0]
	wantCollection := sepa.CollectionDate(day(t, "2026-11-10"), sepa.EarliestCollectionDate(day(t, "2026-11-03"), sepa.Core, f.Config.Invoicing.BankDays))
	if inv.Number != "2026-000001" || inv.Kind != invoicing.Installments || len(inv.Lines) != 2 || inv.Gross != 7140+9520 ||
		inv.Net != 6000+8000 || inv.IssueDate != day(t, "2026-11-03") || inv.CollectionDate != wantCollection || inv.Language != "de" {
		t.Errorf("invoice %+v", inv)
	}
	if inv.Lines[0].ContractID != ids[0] || inv.Lines[1].ContractID != ids[1] || *inv.Lines[1].InstallmentNumber != 1 {
		t.Errorf("lines %+v", inv.Lines)
	}
	if n := events(t, f, inv.ID, webhook.InvoiceIssued); n != 1 {
		t.Errorf("%d invoice.issued events", n)
	}

	if n := journals(t, f); n != 2 {
		t.Errorf("%d journals for two installments due", n)
	}
	balanced(t, f)

	fallDue(t, f, ids[0], "2026-12-03")
	if list = orderInvoices(t, f, orderID); len(list) != 2 || list[1].Number != "2026-000002" || len(list[1].Lines) != 2 {
		t.Errorf("December: %+v", list)
	}
	balanced(t, f)
}

// A charge gets an invoice of its own, once however often its change runs.
func TestAChargeIsInvoicedOnce(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	f.Invoicing()
	orderID := f.Order(t, "ref-charge", laptops)
	id := f.Confirm(t, orderID)[0]
	started(t, f, id, "2026-01-15")
	fallDue(t, f, id, "2026-03-15")
	today := day(t, "2026-03-15")
	quote, err := f.Contracts.QuoteTermination(t.Context(), activities.ContractQuoting{ContractRef: activities.ContractRef{ContractID: id, SellerID: f.SellerID}, Today: today})
	if err != nil {
		t.Fatal(err)
	}
	twice(t, f.Contracts.Terminate, activities.ContractTermination{ContractTransition: rowOf(f, id, contracts.Running, contract.Terminate, today), QuoteID: quote.ID})
	list := orderInvoices(t, f, orderID)
	if len(list) != 4 {
		t.Fatalf("%d invoices, want three months and the charge", len(list))
	}
	charge := list[3]
	if charge.Kind != invoicing.Charge || len(charge.Lines) != 1 || charge.Lines[0].ChargeID == nil || charge.Gross != quote.Total.Gross {
		t.Errorf("charge invoice %+v", charge)
	}
	balanced(t, f)
}

// Invoices issued at once for many orders of one entity take the numbers
// 1 to n, none twice and none left out.
func TestConcurrentIssuingNumbersWithoutGaps(t *testing.T) {
	const n = 20
	f := contracttest.New(t, testenv.Database(t), nil)
	f.Invoicing()
	ids := make([]uuid.UUID, n)
	for i := range ids {
		ids[i] = f.Confirm(t, f.Order(t, fmt.Sprintf("ref-race-%d", i), laptops))[0]
		started(t, f, ids[i], "2026-05-04")
	}
	d := day(t, "2026-05-04")
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for _, id := range ids {
		wg.Go(func() {
			_, err := f.Contracts.FallDue(t.Context(), activities.ContractFallingDue{ContractTransition: rowOf(f, id, contracts.Running, contract.FallDue, d), Through: d})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	list, total, err := invoicing.List(t.Context(), f.Store.Queries, f.SellerID, invoicing.ListFilter{Limit: 100})
	if err != nil || total != n {
		t.Fatalf("%d invoices (%v)", total, err)
	}
	numbers := make([]string, len(list))
	for i, inv := range list {
		numbers[i] = inv.Number
	}
	balanced(t, f)
	sort.Strings(numbers)
	for i, number := range numbers {
		if want := fmt.Sprintf("2026-%06d", i+1); number != want {
			t.Fatalf("numbers %v: #%d is %s, want %s", numbers, i, number, want)
		}
	}
}
