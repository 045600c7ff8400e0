package collections

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/ledger"
)

// The journals of an item's life, keyed by the item and what happened, so
// a retried step posts nothing twice. Collections are in euro.
const currency = "EUR"

// submittedPerJournal bounds a submission journal's entries (two an item),
// so that a run's memory stays flat however much it collects.
const submittedPerJournal = 1000

// postSubmitted moves the amounts of the items a run submitted from their
// contracts' receivable into collection, a journal for every thousand
// items: a journal of many entries costs a fraction of one per item. A
// journal's key names the run and its first item (items are submitted
// once, in the transaction that posts their journal), so a run resumed
// later with more to submit posts journals of its own.
func postSubmitted(ctx context.Context, q *dbgen.Queries, runID uuid.UUID, items []dbgen.SubmitOwedRow) error {
	for chunk := range slices.Chunk(items, submittedPerJournal) {
		entries := make([]ledger.Entry, 0, 2*len(chunk))
		for _, it := range chunk {
			entries = append(entries,
				ledger.Debit(ledger.CustomerInCollection, it.Amount).Contract(it.ContractID),
				ledger.Credit(ledger.CustomerReceivable, it.Amount).Contract(it.ContractID))
		}
		if err := post(ctx, q, "collection-run/"+runID.String()+"/submitted/"+chunk[0].ID.String(), "collection", entries...); err != nil {
			return err
		}
	}
	return nil
}

// postPaid books a settled item on the creditor's account.
func postPaid(ctx context.Context, q *dbgen.Queries, item dbgen.CollectionItem) error {
	return post(ctx, q, "collection/"+item.ID.String()+"/paid", "payment",
		ledger.Debit(ledger.Bank, item.Amount),
		ledger.Credit(ledger.CustomerInCollection, item.Amount).Contract(item.ContractID))
}

// postReturned makes a returned item owed again: out of collection, or,
// when it had been paid, out of the creditor's account.
func postReturned(ctx context.Context, q *dbgen.Queries, item dbgen.CollectionItem, wasPaid bool) error {
	from := ledger.Credit(ledger.CustomerInCollection, item.Amount).Contract(item.ContractID)
	if wasPaid {
		from = ledger.Credit(ledger.Bank, item.Amount)
	}
	return post(ctx, q, "collection/"+item.ID.String()+"/returned", "return",
		ledger.Debit(ledger.CustomerReceivable, item.Amount).Contract(item.ContractID), from)
}

// post posts one balanced journal.
func post(ctx context.Context, q *dbgen.Queries, key, kind string, entries ...ledger.Entry) error {
	_, err := ledger.Post(ctx, q, ledger.Journal{Key: key, Kind: kind, Currency: currency, Entries: entries})
	return err
}

// PostWriteOff writes a contract's owed amount off.
func PostWriteOff(ctx context.Context, q *dbgen.Queries, contractID uuid.UUID, cents int64) error {
	return post(ctx, q, "contract/"+contractID.String()+"/write_off", "write_off",
		ledger.Debit(ledger.WriteOffExpense, cents),
		ledger.Credit(ledger.CustomerReceivable, cents).Contract(contractID))
}
