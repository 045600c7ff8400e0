// Package collections collects what customers owe by SEPA direct debit:
// a daily run picks the installments and charges owed on its collection
// date, submits each as an item (with its ledger journal, in one
// transaction), and streams the items into one pain.008 file per creditor
// account and scheme; bank notifications (camt.054) then settle or return
// the items. Every step is idempotent: a repeated or resumed run and a
// re-imported file change nothing.
package collections
