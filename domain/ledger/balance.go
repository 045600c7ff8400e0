package ledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
)

// ContractReceivable is what a contract's customer owes on issued
// invoices, in cents: its receivable and in-collection accounts.
func ContractReceivable(ctx context.Context, q *dbgen.Queries, contractID uuid.UUID) (int64, error) {
	return q.LedgerBalanceOf(ctx, dbgen.LedgerBalanceOfParams{Accounts: names(Receivable), ContractID: &contractID})
}

// SellerPayableBalance is what Tenure owes a seller, in cents (the
// account's credit balance, so positive while something is owed).
func SellerPayableBalance(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID) (int64, error) {
	balance, err := q.LedgerBalanceOf(ctx, dbgen.LedgerBalanceOfParams{Accounts: names([]Account{SellerPayable}), SellerID: &sellerID})
	return -balance, err
}

// Check states the book's invariants and returns every breach found: the
// entries of each currency sum to zero (PostgreSQL already refuses an
// unbalanced journal; this also covers the book as a whole), and each
// contract's receivable is the gross of its owed (due or failed)
// installments and charges.
func Check(ctx context.Context, q *dbgen.Queries) error {
	var breaches []error
	unbalanced, err := q.LedgerUnbalancedCurrencies(ctx)
	if err != nil {
		return err
	}
	for _, u := range unbalanced {
		breaches = append(breaches, fmt.Errorf("ledger: the %s entries sum to %d, not 0", u.Currency, u.Total))
	}
	mismatches, err := q.LedgerReceivableMismatches(ctx, names(Receivable))
	if err != nil {
		return err
	}
	for _, m := range mismatches {
		breaches = append(breaches, fmt.Errorf("ledger: contract %s owes %d cents but its receivable is %d", m.ContractID, m.Owed, m.Booked))
	}
	return errors.Join(breaches...)
}
