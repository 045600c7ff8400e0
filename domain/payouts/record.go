package payouts

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/listing"
)

// Status is where a payout stands.
type Status string

// The statuses of a payout.
const (
	// Owed: the order is completed, the payout waits for a batch (or for
	// the seller's payout account).
	Owed Status = "owed"
	// Sent: a batch's credit transfer file pays it.
	Sent Status = "sent"
)

// Statuses are the statuses the Seller API lists.
var Statuses = []Status{Owed, Sent}

// Record is a payout as the Seller API's getPayout returns it and the
// payout.sent event sends it (seller.yaml's Payout). Amounts are cents.
type Record struct {
	ID       uuid.UUID `json:"id"`
	OrderID  uuid.UUID `json:"order_id"`
	Status   Status    `json:"status"`
	Currency string    `json:"currency"`
	// Financed is the rented lines' net purchase price, Fee what Tenure
	// keeps, Amount what the seller is paid.
	Financed      int64       `json:"financed"`
	Fee           int64       `json:"fee"`
	Amount        int64       `json:"amount"`
	ExecutionDate *civil.Date `json:"execution_date,omitempty"`
	CreatedAt     time.Time   `json:"created_at"`
	SentAt        *time.Time  `json:"sent_at,omitempty"`
}

// ListFilter selects a page of a seller's payouts, oldest first.
type ListFilter struct {
	Status *Status
	IDGt   *uuid.UUID
	Limit  int64
	Page   int64
}

// recordOf is the record of a payout row.
func recordOf(p dbgen.Payout) Record {
	r := Record{
		ID: p.ID, OrderID: p.OrderID, Status: Status(p.Status), Currency: p.Currency,
		Financed: p.Financed, Fee: p.Fee, Amount: p.Amount, CreatedAt: p.CreatedAt, SentAt: p.SentAt,
	}
	if p.ExecutionDate != nil {
		d := civil.DateOf(*p.ExecutionDate)
		r.ExecutionDate = &d
	}
	return r
}

// Load reads a payout of a seller.
func Load(ctx context.Context, q *dbgen.Queries, sellerID, id uuid.UUID) (Record, error) {
	p, err := q.GetPayout(ctx, dbgen.GetPayoutParams{SellerID: sellerID, ID: id})
	return recordOf(p), err
}

// List reads one page of a seller's payouts and how many match in all.
func List(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, f ListFilter) ([]Record, int64, error) {
	if f.Limit < 1 || f.Limit > listing.MaxLimit || f.Page < 0 || f.Page > listing.MaxPage {
		return nil, 0, fmt.Errorf("a payout page holds 1 to %d payouts from page 0 to %d, got %d on page %d", listing.MaxLimit, listing.MaxPage, f.Limit, f.Page)
	}
	params := dbgen.ListPayoutsParams{SellerID: sellerID, IDGt: f.IDGt, RowLimit: f.Limit, RowOffset: f.Page * f.Limit}
	if f.Status != nil {
		status := string(*f.Status)
		params.Status = &status
	}
	rows, err := q.ListPayouts(ctx, params)
	if err != nil || len(rows) == 0 {
		return []Record{}, 0, err
	}
	out := make([]Record, len(rows))
	for i, r := range rows {
		out[i] = recordOf(dbgen.Payout{
			ID: r.ID, SellerID: r.SellerID, OrderID: r.OrderID, ContractualEntity: r.ContractualEntity, Currency: r.Currency,
			Financed: r.Financed, Fee: r.Fee, Amount: r.Amount, Status: r.Status, FileID: r.FileID, ExecutionDate: r.ExecutionDate,
			CreatedAt: r.CreatedAt, SentAt: r.SentAt,
		})
	}
	return out, rows[0].TotalCount, nil
}
