package ledger_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// post posts a journal in a transaction of its own.
func post(t *testing.T, store *db.Store, j ledger.Journal) (bool, error) {
	t.Helper()
	var posted bool
	err := store.InTx(t.Context(), func(q *dbgen.Queries) (err error) {
		posted, err = ledger.Post(t.Context(), q, j)
		return err
	})
	return posted, err
}

// invoiced is a journal of an invoice of 119.00 gross on a contract.
func invoiced(key string, contractID uuid.UUID) ledger.Journal {
	return ledger.Journal{Key: key, Kind: "invoice", Currency: "EUR", Entries: []ledger.Entry{
		ledger.Debit(ledger.CustomerReceivable, 11900).Contract(contractID),
		ledger.Credit(ledger.RentalRevenue, 10000),
		ledger.Credit(ledger.VATPayable, 1900),
	}}
}

func TestPostIsOncePerKey(t *testing.T) {
	store := testenv.Database(t)
	contractID := uuid.Must(uuid.NewV7())
	for i, want := range []bool{true, false} {
		posted, err := post(t, store, invoiced("invoice/1/issued", contractID))
		if err != nil || posted != want {
			t.Fatalf("post %d: posted %v, %v; want %v", i, posted, err, want)
		}
	}
	receivable, err := ledger.ContractReceivable(t.Context(), store.Queries, contractID)
	if err != nil || receivable != 11900 {
		t.Fatalf("receivable %d, %v; want 11900 once", receivable, err)
	}
	// Submitted for collection, the debt moves between the receivable
	// accounts and the contract still owes the same.
	if _, err := post(t, store, ledger.Journal{Key: "collection/1/submitted", Kind: "collection", Currency: "EUR", Entries: []ledger.Entry{
		ledger.Debit(ledger.CustomerInCollection, 11900).Contract(contractID),
		ledger.Credit(ledger.CustomerReceivable, 11900).Contract(contractID),
	}}); err != nil {
		t.Fatal(err)
	}
	if receivable, _ := ledger.ContractReceivable(t.Context(), store.Queries, contractID); receivable != 11900 {
		t.Errorf("receivable in collection %d, want 11900", receivable)
	}
}

func TestJournalsThatCannotBePosted(t *testing.T) {
	store := testenv.Database(t)
	for name, j := range map[string]ledger.Journal{
		"unbalanced":  {Key: "a", Kind: "fee", Currency: "EUR", Entries: []ledger.Entry{ledger.Debit(ledger.CustomerReceivable, 4000), ledger.Credit(ledger.FeeIncome, 3999)}},
		"no key":      {Kind: "fee", Currency: "EUR", Entries: []ledger.Entry{ledger.Debit(ledger.Bank, 1), ledger.Credit(ledger.FeeIncome, 1)}},
		"no currency": {Key: "b", Kind: "fee", Entries: []ledger.Entry{ledger.Debit(ledger.Bank, 1), ledger.Credit(ledger.FeeIncome, 1)}},
		"no account":  {Key: "c", Kind: "fee", Currency: "EUR", Entries: []ledger.Entry{ledger.Debit("", 1), ledger.Credit(ledger.FeeIncome, 1)}},
	} {
		if posted, err := post(t, store, j); err == nil || posted {
			t.Errorf("%s: posted %v, %v; want refused", name, posted, err)
		}
	}
	if posted, err := post(t, store, ledger.Journal{Key: "zero", Kind: "fee", Currency: "EUR", Entries: []ledger.Entry{ledger.Debit(ledger.Bank, 0), ledger.Credit(ledger.FeeIncome, 0)}}); err != nil || posted {
		t.Errorf("a journal of zeros: posted %v, %v; want nothing posted", posted, err)
	}
	assertBookEmpty(t, store)
}

// TestDatabaseKeepsTheBookSound writes around the Go code: PostgreSQL
// refuses an unbalanced journal at commit and any change to what was
// posted.
func TestDatabaseKeepsTheBookSound(t *testing.T) {
	store := testenv.Database(t)
	ctx := t.Context()
	err := pgx.BeginFunc(ctx, store.Pool, func(tx pgx.Tx) error {
		id := uuid.Must(uuid.NewV7())
		if _, err := tx.Exec(ctx, `INSERT INTO ledger_journals (id, key, kind, currency) VALUES ($1, 'raw', 'fee', 'EUR')`, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO ledger_entries (journal_id, line, account, amount) VALUES ($1, 1, 'bank', 100)`, id)
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "does not balance") {
		t.Fatalf("an unbalanced journal committed: %v", err)
	}
	assertBookEmpty(t, store)

	if _, err := post(t, store, invoiced("invoice/2/issued", uuid.Must(uuid.NewV7()))); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`UPDATE ledger_entries SET amount = amount * 2`,
		`DELETE FROM ledger_entries`,
		`UPDATE ledger_journals SET kind = 'other'`,
		`DELETE FROM ledger_journals`,
	} {
		if _, err := store.Pool.Exec(ctx, stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want refused as append-only", stmt, err)
		}
	}
}

func TestCheckFindsAReceivableNothingOwes(t *testing.T) {
	store := testenv.Database(t)
	if err := ledger.Check(t.Context(), store.Queries); err != nil {
		t.Fatalf("an empty book: %v", err)
	}
	contractID := uuid.Must(uuid.NewV7())
	if _, err := post(t, store, invoiced("invoice/3/issued", contractID)); err != nil {
		t.Fatal(err)
	}
	err := ledger.Check(t.Context(), store.Queries)
	if err == nil || !strings.Contains(err.Error(), contractID.String()) || !strings.Contains(err.Error(), "owes 0 cents but its receivable is 11900") {
		t.Fatalf("Check: %v; want the contract named with what it owes and what is booked", err)
	}
}

func TestSellerPayable(t *testing.T) {
	store := testenv.Database(t)
	sellerID := uuid.Must(uuid.NewV7())
	for _, j := range []ledger.Journal{
		{Key: "order/1/completed", Kind: "purchase", Currency: "EUR", Entries: []ledger.Entry{
			ledger.Debit(ledger.RentalAssets, 100000),
			ledger.Credit(ledger.SellerPayable, 98000).Seller(sellerID),
			ledger.Credit(ledger.FinancingFeeIncome, 2000),
		}},
		{Key: "payout/1/sent", Kind: "payout", Currency: "EUR", Entries: []ledger.Entry{
			ledger.Debit(ledger.SellerPayable, 50000).Seller(sellerID),
			ledger.Credit(ledger.Bank, 50000),
		}},
	} {
		if _, err := post(t, store, j); err != nil {
			t.Fatal(err)
		}
	}
	owed, err := ledger.SellerPayableBalance(t.Context(), store.Queries, sellerID)
	if err != nil || owed != 48000 {
		t.Fatalf("owed to the seller %d, %v; want 48000", owed, err)
	}
	if err := ledger.Check(t.Context(), store.Queries); err != nil {
		t.Fatal(err)
	}
}

// assertBookEmpty fails when anything was posted.
func assertBookEmpty(t *testing.T, store *db.Store) {
	t.Helper()
	var n int
	if err := store.Pool.QueryRow(context.Background(), `SELECT count(*) FROM ledger_journals`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d journals posted (%v), want none", n, err)
	}
}
