// Package ledger is Tenure's double-entry book: every money movement (an
// invoice issued, a collection submitted, paid or returned, a fee, default
// interest, a write-off, a seller's purchase and payout) posts one balanced
// journal in the same transaction as the change that caused it.
//
// A journal is keyed by its cause, so an activity that runs twice posts it
// once. Entries are in integer cents, debits positive and credits
// negative; PostgreSQL refuses a journal that does not sum to zero when
// its transaction commits, and refuses changing or deleting what was
// posted. Check states the book's invariants for tests and operators.
package ledger
