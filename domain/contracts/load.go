package contracts

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/listing"
)

// Load reads a contract of a seller with everything it shows; a missing
// contract (or another seller's) is the query's no-rows error.
func Load(ctx context.Context, q *dbgen.Queries, sellerID, contractID uuid.UUID) (Stored, error) {
	row, err := q.GetContractRecord(ctx, dbgen.GetContractRecordParams{SellerID: sellerID, ID: contractID})
	if err != nil {
		return Stored{}, err
	}
	out, err := decode(ctx, q, []record{{row: row.RentalContract, document: row.OrderDocument}})
	if err != nil {
		return Stored{}, err
	}
	return out[0], nil
}

// LoadSchedule reads the schedule of a contract's row, nil until its term
// starts: one query, for changes that need the installments alone.
func LoadSchedule(ctx context.Context, q *dbgen.Queries, row dbgen.RentalContract) (*Schedule, error) {
	if row.StartDate == nil {
		return nil, nil
	}
	rows, err := q.ListContractInstallments(ctx, []uuid.UUID{row.ID})
	if err != nil {
		return nil, err
	}
	return scheduleOf(row, rows)
}

// ListFilter selects a page of a seller's contracts, oldest first. The nil
// filters select every contract.
type ListFilter struct {
	Status  *Status
	OrderID *uuid.UUID
	// EndingBefore keeps the contracts whose current term ends before the
	// day; contracts whose term has not started have no end.
	EndingBefore *civil.Date
	// IDGt keeps the contracts created after the one named (ids are
	// time-ordered).
	IDGt *uuid.UUID
	// Limit is the page size, 1 to listing.MaxLimit; Page counts pages of
	// Limit from 0.
	Limit int64
	Page  int64
}

// List reads one page of a seller's contracts and how many match in all.
func List(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, f ListFilter) ([]Stored, int64, error) {
	return list(ctx, q, &sellerID, f)
}

// ListEverySeller is List over every seller's contracts, for operators.
func ListEverySeller(ctx context.Context, q *dbgen.Queries, f ListFilter) ([]Stored, int64, error) {
	return list(ctx, q, nil, f)
}

// ListNewest reads a page of at most limit of a seller's contracts,
// newest first, older than the contract (beforeAt, beforeID); a zero
// beforeAt starts at the newest. It pages by (created_at, id), so a page
// never skips or repeats a contract created in the same instant.
func ListNewest(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, beforeAt time.Time, beforeID uuid.UUID, limit int64) ([]Stored, error) {
	if limit < 1 || limit > listing.MaxLimit {
		return nil, fmt.Errorf("a contract page holds 1 to %d contracts, got %d", listing.MaxLimit, limit)
	}
	if beforeAt.IsZero() {
		beforeAt, beforeID = endOfTime, uuid.Max
	}
	rows, err := q.ListNewestContractRecords(ctx, dbgen.ListNewestContractRecordsParams{
		SellerID: sellerID, BeforeAt: beforeAt, BeforeID: beforeID, RowLimit: limit,
	})
	if err != nil || len(rows) == 0 {
		return []Stored{}, err
	}
	records := make([]record, len(rows))
	for i, r := range rows {
		records[i] = record{row: r.RentalContract, document: r.OrderDocument}
	}
	return decode(ctx, q, records)
}

// endOfTime is after every contract's creation: the first page's bound.
var endOfTime = time.Date(9999, time.December, 31, 0, 0, 0, 0, time.UTC)

func list(ctx context.Context, q *dbgen.Queries, sellerID *uuid.UUID, f ListFilter) ([]Stored, int64, error) {
	if f.Limit < 1 || f.Limit > listing.MaxLimit || f.Page < 0 || f.Page > listing.MaxPage {
		return nil, 0, fmt.Errorf("a contract page holds 1 to %d contracts from page 0 to %d, got %d on page %d", listing.MaxLimit, listing.MaxPage, f.Limit, f.Page)
	}
	params := dbgen.ListContractRecordsParams{
		SellerID: sellerID, OrderID: f.OrderID, IDGt: f.IDGt, RowLimit: f.Limit, RowOffset: f.Page * f.Limit,
	}
	if f.Status != nil {
		status := string(*f.Status)
		params.Status = &status
	}
	if f.EndingBefore != nil {
		day := f.EndingBefore.Midnight(time.UTC)
		params.EndingBefore = &day
	}
	rows, err := q.ListContractRecords(ctx, params)
	if err != nil || len(rows) == 0 {
		return []Stored{}, 0, err
	}
	records := make([]record, len(rows))
	for i, r := range rows {
		records[i] = record{row: r.RentalContract, document: r.OrderDocument}
	}
	out, err := decode(ctx, q, records)
	if err != nil {
		return nil, 0, err
	}
	return out, rows[0].TotalCount, nil
}
