package services

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/foundation/listing"
)

// SearchPageSize is how many orders a search shows at most, newest first.
const SearchPageSize = 50

// MinSearchLength is the shortest text a search takes: the trigram index
// finds nothing shorter than three characters by itself.
const MinSearchLength = 3

// ErrSearchTooShort refuses a search text shorter than MinSearchLength.
var ErrSearchTooShort = fmt.Errorf("search for at least %d characters, or an id", MinSearchLength)

// Found is what a search for an id found: the kind of record it names
// ("offer", "order", "contract", "invoice", "payout"), with the order that
// holds an invoice or a payout, whose page shows it.
type Found struct {
	Kind string
	// Page is the id of the record whose page shows it.
	Page uuid.UUID
}

// ErrNothingFound is an id that names no record.
var ErrNothingFound = errors.New("no record has this id")

// FindRecord is the record an id names, for an operator's search box.
func (c *Console) FindRecord(ctx context.Context, id uuid.UUID) (Found, error) {
	q := c.Offers.Store.Queries
	kinds, err := q.FindRecord(ctx, id)
	if err != nil {
		return Found{}, err
	}
	if len(kinds) == 0 {
		return Found{}, ErrNothingFound
	}
	found := Found{Kind: kinds[0], Page: id}
	switch found.Kind {
	case "invoice":
		seller, err := q.GetInvoiceSeller(ctx, id)
		if err != nil {
			return found, err
		}
		inv, err := c.Invoices.Get(ctx, seller, id)
		found.Kind, found.Page = "order", inv.OrderID
		return found, err
	case "payout":
		p, err := q.GetPayoutForOperator(ctx, id)
		found.Kind, found.Page = "order", p.OrderID
		return found, err
	}
	return found, nil
}

// SearchOrders are the orders of every seller, newest first, whose
// reference, company, customer's or agent's name or e-mail holds the
// text (case does not matter).
func (c *Console) SearchOrders(ctx context.Context, text string) ([]dbgen.SearchOrdersRow, error) {
	text = strings.ToLower(strings.TrimSpace(text))
	if len([]rune(text)) < MinSearchLength {
		return nil, ErrSearchTooShort
	}
	return c.Offers.Store.SearchOrders(ctx, dbgen.SearchOrdersParams{Query: db.EscapeLike(text), PageSize: SearchPageSize})
}

// OrderRecord is an order as operators see it: the order, its seller, its
// contracts and invoices, and its timeline.
type OrderRecord struct {
	Order      orders.Stored
	SellerName string
	Contracts  []contracts.Stored
	// Invoices are the order's first listing.MaxLimit invoices.
	Invoices []invoicing.Record
	Timeline []TimelineEntry
}

// Order is any order by its id, for an operator.
func (c *Console) Order(ctx context.Context, id uuid.UUID) (OrderRecord, error) {
	seller, err := c.Offers.Store.GetOrderSeller(ctx, id)
	if db.IsNotFound(err) {
		return OrderRecord{}, ErrOrderNotFound
	}
	if err != nil {
		return OrderRecord{}, err
	}
	var r OrderRecord
	if r.Order, err = c.Orders.Get(ctx, seller, id); err != nil {
		return r, err
	}
	if r.SellerName, err = c.SellerName(ctx, seller); err != nil {
		return r, err
	}
	if r.Contracts, _, err = c.Contracts.List(ctx, seller, contracts.ListFilter{OrderID: &id, Limit: listing.MaxLimit}); err != nil {
		return r, err
	}
	if r.Invoices, _, err = c.Invoices.List(ctx, seller, invoicing.ListFilter{OrderID: &id, Limit: listing.MaxLimit}); err != nil {
		return r, err
	}
	row := r.Order.Row
	moments := []TimelineEntry{{At: row.CreatedAt, Kind: TimelineStatus, What: MomentCreated}}
	shipments, err := c.Offers.Store.ListOrderShipments(ctx, id)
	if err != nil {
		return r, err
	}
	for _, s := range shipments {
		moments = append(moments, TimelineEntry{At: s.CreatedAt, Kind: TimelineStatus, What: MomentShipped, Detail: s.TrackingUrl})
	}
	if row.CanceledAt != nil {
		moments = append(moments, TimelineEntry{At: *row.CanceledAt, Kind: TimelineStatus, What: MomentCanceled})
	}
	if row.Status != "created" && row.Status != "canceled" {
		moments = append(moments, TimelineEntry{At: row.UpdatedAt, Kind: TimelineStatus, What: MomentNow, Detail: row.Status})
	}
	records := []uuid.UUID{id}
	for _, inv := range r.Invoices {
		records = append(records, inv.ID)
	}
	r.Timeline, err = c.Timeline(ctx, TimelineOf{SellerID: seller, Records: records, AuditTargets: []string{OrderTarget(id)}, Moments: moments})
	return r, err
}

// ContractRecord is a contract as operators see it: the contract, its
// order's company and seller, its collections and invoices, and its
// timeline.
type ContractRecord struct {
	Contract   contracts.Stored
	SellerName string
	Company    string
	// Installments are the schedule's rows with the moment each took its
	// status.
	Installments []dbgen.ContractInstallment
	Collections  []dbgen.ListContractCollectionItemsRow
	Invoices     []invoicing.Record
	Timeline     []TimelineEntry
}

// Contract is any contract by its id, for an operator.
func (c *Console) Contract(ctx context.Context, id uuid.UUID) (ContractRecord, error) {
	q := c.Offers.Store.Queries
	seller, err := q.GetContractSeller(ctx, id)
	if db.IsNotFound(err) {
		return ContractRecord{}, ErrContractNotFound
	}
	if err != nil {
		return ContractRecord{}, err
	}
	var r ContractRecord
	if r.Contract, err = c.Contracts.Get(ctx, seller, id); err != nil {
		return r, err
	}
	if r.SellerName, err = c.SellerName(ctx, seller); err != nil {
		return r, err
	}
	order, err := c.Orders.Get(ctx, seller, r.Contract.OrderID)
	if err != nil {
		return r, err
	}
	r.Company = order.Row.CompanyName
	if r.Installments, err = q.ListContractInstallments(ctx, []uuid.UUID{id}); err != nil {
		return r, err
	}
	if r.Collections, err = q.ListContractCollectionItems(ctx, id); err != nil {
		return r, err
	}
	if r.Invoices, _, err = c.Invoices.List(ctx, seller, invoicing.ListFilter{ContractID: &id, Limit: listing.MaxLimit}); err != nil {
		return r, err
	}
	records := []uuid.UUID{id}
	for _, inv := range r.Invoices {
		records = append(records, inv.ID)
	}
	r.Timeline, err = c.Timeline(ctx, TimelineOf{
		SellerID: seller, Records: records, AuditTargets: []string{ContractTarget(id)}, Moments: contractMoments(r),
	})
	return r, err
}

// The moments of a record's timeline (TimelineStatus lines' What, beside
// "installment.<status>" and "collection.<status>").
const (
	// MomentCreated is the record's creation.
	MomentCreated = "created"
	// MomentShipped is a shipment of an order; Detail is its tracking link.
	MomentShipped = "shipped"
	// MomentCanceled is an order's cancellation.
	MomentCanceled = "canceled"
	// MomentNow is the record's last change; Detail is the status it has.
	MomentNow = "now"
	// MomentCharge is a contract's charge; Detail is its kind.
	MomentCharge = "charge"
)

// contractMoments are the status changes a contract's rows keep: its
// creation, each installment's last move (scheduled ones are not news),
// each collection submitted and settled, each charge, and how it ended.
func contractMoments(r ContractRecord) []TimelineEntry {
	k := r.Contract
	moments := []TimelineEntry{{At: k.CreatedAt, Kind: TimelineStatus, What: MomentCreated}}
	for _, i := range r.Installments {
		if i.Status != string(contracts.InstallmentScheduled) {
			moments = append(moments, TimelineEntry{At: i.StatusChangedAt, Kind: TimelineStatus, What: "installment." + i.Status,
				Detail: fmt.Sprintf("#%d", i.Number), Failed: i.Status == string(contracts.InstallmentFailed)})
		}
	}
	for _, ci := range r.Collections {
		moments = append(moments, TimelineEntry{At: ci.CreatedAt, Kind: TimelineStatus, What: "collection.submitted",
			Detail: fmt.Sprintf("%s · %s", ci.EndToEndID, ci.SequenceType)})
		if ci.SettledAt != nil {
			detail := ci.EndToEndID
			if ci.Reason != "" {
				detail += " · " + ci.Reason
			}
			moments = append(moments, TimelineEntry{At: *ci.SettledAt, Kind: TimelineStatus, What: "collection." + ci.Status,
				Detail: detail, Failed: ci.Status == "returned"})
		}
	}
	for _, ch := range k.Charges {
		moments = append(moments, TimelineEntry{At: ch.CreatedAt, Kind: TimelineStatus, What: MomentCharge, Detail: string(ch.Kind)})
	}
	if k.Status != contracts.AwaitingDelivery {
		moments = append(moments, TimelineEntry{At: k.UpdatedAt, Kind: TimelineStatus, What: MomentNow, Detail: string(k.Status)})
	}
	return moments
}

// InvoicePDF is any invoice's PDF as issued, for an operator.
func (c *Console) InvoicePDF(ctx context.Context, id uuid.UUID) ([]byte, error) {
	seller, err := c.Offers.Store.GetInvoiceSeller(ctx, id)
	if db.IsNotFound(err) {
		return nil, ErrInvoiceNotFound
	}
	if err != nil {
		return nil, err
	}
	pdf, err := c.Invoices.Document(ctx, seller, id, InvoicePDF)
	if db.IsNotFound(err) {
		return nil, ErrInvoiceNotFound
	}
	return pdf, err
}
