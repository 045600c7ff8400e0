package ledger

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Post writes a journal with q, which must be the transaction of the
// change that caused it. It reports false, and writes nothing, when a
// journal with the same key was posted before (a retried activity), and
// when every entry is zero (nothing moved).
func Post(ctx context.Context, q *dbgen.Queries, j Journal) (bool, error) {
	entries, err := j.posted()
	if err != nil || len(entries) == 0 {
		return false, err
	}
	id, err := q.CreateLedgerJournal(ctx, dbgen.CreateLedgerJournalParams{
		ID: uuid.Must(uuid.NewV7()), Key: j.Key, Kind: j.Kind, Currency: j.Currency,
	})
	if db.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	p := dbgen.CreateLedgerEntriesParams{JournalID: id}
	for i, e := range entries {
		p.Lines = append(p.Lines, int32(i+1))
		p.Accounts = append(p.Accounts, string(e.Account))
		p.ContractIds = append(p.ContractIds, e.ContractID)
		p.SellerIds = append(p.SellerIds, e.SellerID)
		p.Amounts = append(p.Amounts, e.Amount)
	}
	return true, q.CreateLedgerEntries(ctx, p)
}
