package ledger

import (
	"errors"
	"fmt"

	"github.com/google/uuid"
)

// Entry is one line of a journal: an amount in cents on an account,
// positive for a debit and negative for a credit, scoped to a contract or
// a seller where the account is kept per contract or per seller (uuid.Nil
// scopes it to neither).
type Entry struct {
	Account    Account
	ContractID uuid.UUID
	SellerID   uuid.UUID
	Amount     int64
}

// Debit is an entry debiting cents to an account.
func Debit(a Account, cents int64) Entry { return Entry{Account: a, Amount: cents} }

// Credit is an entry crediting cents to an account.
func Credit(a Account, cents int64) Entry { return Entry{Account: a, Amount: -cents} }

// Contract scopes the entry to a contract.
func (e Entry) Contract(id uuid.UUID) Entry { e.ContractID = id; return e }

// Seller scopes the entry to a seller.
func (e Entry) Seller(id uuid.UUID) Entry { e.SellerID = id; return e }

// Journal is one money movement: the entries it posts, in one currency.
type Journal struct {
	// Key names the cause ("invoice/<id>/issued", "collection/<id>/paid"):
	// a journal is posted once per key.
	Key string
	// Kind is the movement's kind in a word: invoice, collection, payment,
	// return, fee, interest, write_off, purchase, payout.
	Kind string
	// Currency is the ISO 4217 code of every entry's amount.
	Currency string
	// Entries are the journal's lines; zero amounts are left out.
	Entries []Entry
}

// errUnbalanced says a journal's entries do not sum to zero.
var errUnbalanced = errors.New("ledger: the journal does not balance")

// posted are the journal's entries without the zero ones, checked: a key,
// a kind, a currency, at least two entries, and a sum of zero.
func (j Journal) posted() ([]Entry, error) {
	if j.Key == "" || j.Kind == "" || len(j.Currency) != 3 {
		return nil, fmt.Errorf("ledger: journal %q of kind %q in %q needs a key, a kind and a currency", j.Key, j.Kind, j.Currency)
	}
	entries := make([]Entry, 0, len(j.Entries))
	var sum int64
	for _, e := range j.Entries {
		if e.Account == "" {
			return nil, fmt.Errorf("ledger: journal %q has an entry without an account", j.Key)
		}
		if e.Amount != 0 {
			entries = append(entries, e)
			sum += e.Amount
		}
	}
	if sum != 0 {
		return nil, fmt.Errorf("%w: %q sums to %d", errUnbalanced, j.Key, sum)
	}
	return entries, nil
}
