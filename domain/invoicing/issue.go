package invoicing

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/invoices"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/links"
)

// Issuing issues invoices inside the transactions of the changes that
// cause them.
type Issuing struct {
	Issuers  Issuers
	Mandates Mandates
	// BankDays are the creditor bank's business days ahead of the scheme's
	// lead time (invoicing.bank_days): with the issue date they give the
	// earliest collection date the invoice can announce.
	BankDays int
	// Links sign the customer's links to the invoices.
	Links CustomerLinks
}

// New issues invoices as the configuration says, with the mandates of
// the checkouts.
func New(cfg *config.Config, mandates Mandates) *Issuing {
	return &Issuing{
		Issuers:  ConfiguredIssuers{Config: cfg},
		Mandates: mandates,
		BankDays: cfg.Invoicing.BankDays,
		Links:    CustomerLinks{Signer: links.NewSigner(cfg.Links.SigningKey), PublicURL: cfg.HTTP.PublicURL, TTL: cfg.Invoicing.LinkTTL},
	}
}

// draft is an invoice before it is numbered: what it bills, and the words
// of its lines once the customer's language is known.
type draft struct {
	order     orders.Stored
	kind      Kind
	period    *civil.Date
	issueDate civil.Date
	lines     []draftLine
}

// draftLine is a line of a draft with what it bills.
type draftLine struct {
	line              invoices.Line
	describe          func(wording) string
	contractID        uuid.UUID
	installmentNumber int
	chargeID          uuid.UUID
	due               civil.Date
}

// issue numbers a draft, renders its PDF and e-invoice and stores the
// invoice with its lines and documents. It answers ErrNotInvoiceable,
// having taken no number, for an order without a mandate (the invoice
// announces a direct debit) or one the invoice would lack data of.
func (s Issuing) issue(ctx context.Context, q *dbgen.Queries, d draft) (Issued, error) {
	seller, err := q.GetSeller(ctx, d.order.Row.SellerID)
	if err != nil {
		return Issued{}, err
	}
	issuer, err := s.Issuers.Issuer(seller.ContractualEntity)
	if err != nil {
		return Issued{}, err
	}
	mandate, err := s.Mandates.OrderMandate(ctx, q, d.order.Row)
	if err != nil {
		return Issued{}, err
	}
	creditor := issuer.CreditorID
	if mandate.CreditorID != "" {
		creditor = mandate.CreditorID
	}
	buyer, language, err := buyerOf(ctx, q, d.order)
	if err != nil {
		return Issued{}, err
	}
	w := wordings[language]
	inv := invoices.Invoice{
		IssueDate: d.issueDate, Language: language, Currency: d.lines[0].line.Price.Currency,
		Seller: issuer.Party, Buyer: buyer, BuyerReference: buyerReference(d.order.Row),
		Payment: invoices.DirectDebit{
			Mandate: mandate.Reference, CreditorID: creditor, DebtorIBAN: mandate.DebtorIBAN,
			CollectionDate: s.collectionDate(d, mandate.Scheme),
		},
	}
	for _, l := range d.lines {
		line := l.line
		line.Description = l.describe(w)
		inv.Lines = append(inv.Lines, line)
		if line.Price.TaxRate == 0 {
			inv.ExemptionReason = w.untaxed
		}
	}
	// Checked before the number is taken: a refused invoice leaves no gap.
	inv.Number = "unnumbered"
	if problems := inv.Validate(); len(problems) > 0 {
		return Issued{}, fmt.Errorf("%w: order %s: %v", ErrNotInvoiceable, d.order.Row.ID, problems)
	}
	number, err := takeNumber(ctx, q, issuer.Entity, d.issueDate.Year())
	if err != nil {
		return Issued{}, err
	}
	inv.Number = number
	var pdf, xml bytes.Buffer
	if err := invoices.WritePDF(&pdf, inv); err != nil {
		return Issued{}, fmt.Errorf("invoice %s of order %s: %w", number, d.order.Row.ID, err)
	}
	if err := invoices.WriteCII(&xml, inv); err != nil {
		return Issued{}, fmt.Errorf("invoice %s of order %s: %w", number, d.order.Row.ID, err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Issued{}, err
	}
	issued := issuedOf(id, d, inv)
	if err := store(ctx, q, issued, issuer.Entity, d, inv, mandate); err != nil {
		return Issued{}, err
	}
	for format, content := range map[string][]byte{"pdf": pdf.Bytes(), "xml": xml.Bytes()} {
		if err := q.CreateInvoiceDocument(ctx, dbgen.CreateInvoiceDocumentParams{InvoiceID: id, Format: format, Content: content}); err != nil {
			return Issued{}, err
		}
	}
	// Marked last: the rows of the other contracts' installments it bills
	// stay locked from here to the commit only, and a contract of the
	// order falling due meanwhile waits for them that short while.
	return issued, markBilled(ctx, q, issued, d)
}

// collectionDate is the day the collection run collects the invoice: the
// day the run would collect its latest due line, never before the
// earliest collection date a file delivered on the issue date can ask for
// (the function the collection run uses, so the pre-notification names
// the day the debit is made).
func (s Issuing) collectionDate(d draft, scheme sepa.Scheme) civil.Date {
	latest := slices.MaxFunc(d.lines, func(a, b draftLine) int { return a.due.Compare(b.due) }).due
	return sepa.CollectionDate(latest, sepa.EarliestCollectionDate(d.issueDate, scheme, s.BankDays))
}

// buyerReference is the customer's reference of an order (BT-10): the
// seller's offer reference, else the order's id.
func buyerReference(order dbgen.Order) string {
	if order.SellerOfferReference != "" {
		return order.SellerOfferReference
	}
	return order.ID.String()
}

// issuedOf is the issued invoice of a draft rendered as inv.
func issuedOf(id uuid.UUID, d draft, inv invoices.Invoice) Issued {
	t := inv.Totals()
	issued := Issued{
		ID: id, SellerID: d.order.Row.SellerID, OrderID: d.order.Row.ID, Number: inv.Number, Kind: d.kind,
		IssueDate: inv.IssueDate, CollectionDate: inv.Payment.CollectionDate, Currency: inv.Currency,
		Net: t.Net, Tax: t.Tax, Gross: t.Gross,
	}
	for i, l := range d.lines {
		a := inv.Lines[i].Amount()
		issued.Lines = append(issued.Lines, IssuedLine{
			ContractID: l.contractID, InstallmentNumber: l.installmentNumber, ChargeID: l.chargeID,
			Net: a.Net, Tax: a.Gross - a.Net, Gross: a.Gross,
		})
	}
	return issued
}

// store writes an issued invoice and its lines.
func store(ctx context.Context, q *dbgen.Queries, issued Issued, entity string, d draft, inv invoices.Invoice, mandate Mandate) error {
	var period *time.Time
	if d.period != nil {
		p := d.period.Midnight(time.UTC)
		period = &p
	}
	service := inv.ServicePeriod()
	err := q.CreateInvoice(ctx, dbgen.CreateInvoiceParams{
		ID: issued.ID, SellerID: issued.SellerID, OrderID: issued.OrderID, ContractualEntity: entity, Number: issued.Number,
		Kind: string(issued.Kind), Period: period, IssueDate: issued.IssueDate.Midnight(time.UTC),
		ServiceFrom: service.From.Midnight(time.UTC), ServiceTo: service.To.Midnight(time.UTC), Currency: issued.Currency,
		Net: issued.Net, Tax: issued.Tax, Gross: issued.Gross, Language: string(inv.Language),
		CollectionDate: issued.CollectionDate.Midnight(time.UTC), MandateReference: string(mandate.Reference),
	})
	if err != nil {
		return err
	}
	for i, l := range d.lines {
		line, billed := inv.Lines[i], issued.Lines[i]
		params := dbgen.CreateInvoiceLineParams{
			InvoiceID: issued.ID, Position: int32(i + 1), ContractID: l.contractID, Description: line.Description, Quantity: line.Quantity,
			ServiceFrom: line.Period.From.Midnight(time.UTC), ServiceTo: line.Period.To.Midnight(time.UTC),
			Net: billed.Net, TaxRate: line.Price.TaxRate, Tax: billed.Tax, Gross: billed.Gross,
		}
		if l.installmentNumber > 0 {
			number := int32(l.installmentNumber)
			params.InstallmentNumber = &number
		} else {
			chargeID := l.chargeID
			params.ChargeID = &chargeID
		}
		if err := q.CreateInvoiceLine(ctx, params); err != nil {
			return err
		}
	}
	return nil
}

// markBilled marks what an issued invoice's lines bill as invoiced;
// something invoiced already refuses the whole invoice.
func markBilled(ctx context.Context, q *dbgen.Queries, issued Issued, d draft) error {
	for i, l := range d.lines {
		var (
			marked int64
			err    error
		)
		if l.installmentNumber > 0 {
			marked, err = q.SetInstallmentInvoice(ctx, dbgen.SetInstallmentInvoiceParams{InvoiceID: &issued.ID, ContractID: l.contractID, Number: int32(l.installmentNumber)})
		} else {
			marked, err = q.SetChargeInvoice(ctx, dbgen.SetChargeInvoiceParams{InvoiceID: &issued.ID, ID: l.chargeID})
		}
		if err != nil {
			return err
		}
		if marked != 1 {
			return fmt.Errorf("invoice %s: line %d bills what another invoice bills", issued.Number, i+1)
		}
	}
	return nil
}
