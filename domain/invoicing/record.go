package invoicing

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/listing"
)

// Status is where an invoice stands. Invoices are issued and stay so;
// credit notes and cancellations (issue 24's later steps) add statuses.
type Status string

// StatusIssued is the status of every invoice Tenure issues.
const StatusIssued Status = "issued"

// Statuses are the statuses the Seller API lists.
var Statuses = []Status{StatusIssued}

// Record is an invoice as the Seller API's getInvoice returns it and the
// invoice.issued event sends it (seller.yaml's Invoice). Amounts are
// integer cents.
type Record struct {
	ID             uuid.UUID    `json:"id"`
	Number         string       `json:"number"`
	Kind           Kind         `json:"kind"`
	Status         Status       `json:"status"`
	OrderID        uuid.UUID    `json:"order_id"`
	IssueDate      civil.Date   `json:"issue_date"`
	ServicePeriod  civil.Period `json:"service_period"`
	Currency       string       `json:"currency"`
	Net            int64        `json:"net"`
	Tax            int64        `json:"tax"`
	Gross          int64        `json:"gross"`
	Language       string       `json:"language"`
	CollectionDate civil.Date   `json:"collection_date"`
	// MandateReference is the SEPA mandate the amount is collected under.
	MandateReference string       `json:"mandate_reference"`
	Lines            []RecordLine `json:"lines"`
	CreatedAt        time.Time    `json:"created_at"`
	// CustomerURL is a signed link at which the customer downloads the
	// invoice's PDF; set by the event, not stored.
	CustomerURL string `json:"customer_url,omitempty"`
}

// RecordLine is one line of an invoice: an installment of a contract
// (installment_number) or a charge (charge_id).
type RecordLine struct {
	Position          int          `json:"position"`
	ContractID        uuid.UUID    `json:"contract_id"`
	InstallmentNumber *int         `json:"installment_number,omitempty"`
	ChargeID          *uuid.UUID   `json:"charge_id,omitempty"`
	Description       string       `json:"description"`
	Quantity          int64        `json:"quantity"`
	ServicePeriod     civil.Period `json:"service_period"`
	Net               int64        `json:"net"`
	TaxRate           int64        `json:"tax_rate"`
	Tax               int64        `json:"tax"`
	Gross             int64        `json:"gross"`
}

// ListFilter selects a page of a seller's invoices, oldest first; the
// nil filters select every invoice.
type ListFilter struct {
	Status     *Status
	OrderID    *uuid.UUID
	ContractID *uuid.UUID
	// IDGt keeps the invoices created after the one named (ids are
	// time-ordered).
	IDGt *uuid.UUID
	// Limit is the page size, 1 to listing.MaxLimit; Page counts pages of
	// Limit from 0.
	Limit int64
	Page  int64
}

// Load reads an invoice of a seller with its lines.
func Load(ctx context.Context, q *dbgen.Queries, sellerID, id uuid.UUID) (Record, error) {
	row, err := q.GetInvoice(ctx, dbgen.GetInvoiceParams{SellerID: sellerID, ID: id})
	if err != nil {
		return Record{}, err
	}
	out, err := withLines(ctx, q, []dbgen.Invoice{row})
	if err != nil {
		return Record{}, err
	}
	return out[0], nil
}

// List reads one page of a seller's invoices and how many match in all.
func List(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, f ListFilter) ([]Record, int64, error) {
	if f.Limit < 1 || f.Limit > listing.MaxLimit || f.Page < 0 || f.Page > listing.MaxPage {
		return nil, 0, fmt.Errorf("an invoice page holds 1 to %d invoices from page 0 to %d, got %d on page %d", listing.MaxLimit, listing.MaxPage, f.Limit, f.Page)
	}
	params := dbgen.ListInvoicesParams{
		SellerID: sellerID, OrderID: f.OrderID, ContractID: f.ContractID, IDGt: f.IDGt, RowLimit: f.Limit, RowOffset: f.Page * f.Limit,
	}
	if f.Status != nil {
		status := string(*f.Status)
		params.Status = &status
	}
	rows, err := q.ListInvoices(ctx, params)
	if err != nil || len(rows) == 0 {
		return []Record{}, 0, err
	}
	invoices := make([]dbgen.Invoice, len(rows))
	for i, r := range rows {
		invoices[i] = dbgen.Invoice{
			ID: r.ID, SellerID: r.SellerID, OrderID: r.OrderID, ContractualEntity: r.ContractualEntity, Number: r.Number, Kind: r.Kind,
			Period: r.Period, IssueDate: r.IssueDate, ServiceFrom: r.ServiceFrom, ServiceTo: r.ServiceTo, Currency: r.Currency,
			Net: r.Net, Tax: r.Tax, Gross: r.Gross, Language: r.Language, Status: r.Status, CollectionDate: r.CollectionDate,
			MandateReference: r.MandateReference, CreatedAt: r.CreatedAt,
		}
	}
	out, err := withLines(ctx, q, invoices)
	return out, rows[0].TotalCount, err
}

// withLines is the records of invoice rows, each with its lines.
func withLines(ctx context.Context, q *dbgen.Queries, rows []dbgen.Invoice) ([]Record, error) {
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	lines, err := q.ListInvoiceLines(ctx, ids)
	if err != nil {
		return nil, err
	}
	byInvoice := map[uuid.UUID][]RecordLine{}
	for _, l := range lines {
		line := RecordLine{
			Position: int(l.Position), ContractID: l.ContractID, ChargeID: l.ChargeID, Description: l.Description, Quantity: l.Quantity,
			ServicePeriod: periodOf(l.ServiceFrom, l.ServiceTo), Net: l.Net, TaxRate: l.TaxRate, Tax: l.Tax, Gross: l.Gross,
		}
		if l.InstallmentNumber != nil {
			n := int(*l.InstallmentNumber)
			line.InstallmentNumber = &n
		}
		byInvoice[l.InvoiceID] = append(byInvoice[l.InvoiceID], line)
	}
	out := make([]Record, len(rows))
	for i, r := range rows {
		out[i] = Record{
			ID: r.ID, Number: r.Number, Kind: Kind(r.Kind), Status: Status(r.Status), OrderID: r.OrderID,
			IssueDate: civil.DateOf(r.IssueDate), ServicePeriod: periodOf(r.ServiceFrom, r.ServiceTo), Currency: r.Currency,
			Net: r.Net, Tax: r.Tax, Gross: r.Gross, Language: r.Language, CollectionDate: civil.DateOf(r.CollectionDate),
			MandateReference: r.MandateReference, Lines: byInvoice[r.ID], CreatedAt: r.CreatedAt,
		}
	}
	return out, nil
}

// periodOf is the period of two stored days.
func periodOf(from, to time.Time) civil.Period {
	return civil.Period{From: civil.DateOf(from), To: civil.DateOf(to)}
}
