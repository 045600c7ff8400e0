package collections

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/sepa"
)

// Imported counts what a bank notification changed: items paid and
// returned, notices about items settled already (a second import), and
// notices naming no item of Tenure's.
type Imported struct {
	Paid, Returned, Unchanged, Unknown int
}

// Applied is what one notice did to its item.
type Applied int

// The outcomes of a notice.
const (
	// Unknown: the end-to-end id names no item of Tenure's.
	Unknown Applied = iota
	// Unchanged: the item was settled or returned already.
	Unchanged
	// Paid: the item and its installment or charge are paid.
	Paid
	// Returned: the item is returned, its installment or charge failed.
	Returned
)

// Deliver hands a notice about an item to whatever applies it: the
// contract's workflow (whose activity calls ApplyNotice), or ApplyOwn.
type Deliver func(ctx context.Context, item dbgen.CollectionItem, n sepa.Notice) error

// ImportNotifications reads a camt.054 notification and delivers each
// notice that would change its item: a booked credit of a submitted item,
// a return of a submitted or paid one. Notices about items that moved
// already count as unchanged, so importing a file twice delivers nothing
// the second time; and ApplyNotice checks again under the item's lock.
func (r *Runner) ImportNotifications(ctx context.Context, file io.Reader, deliver Deliver) (Imported, error) {
	var got Imported
	for n, err := range sepa.ReadNotifications(file) {
		if err != nil {
			return got, err
		}
		item, err := r.Store.GetCollectionItem(ctx, string(n.EndToEndID))
		switch {
		case db.IsNotFound(err):
			got.Unknown++
			continue
		case err != nil:
			return got, err
		case !changes(item, n):
			got.Unchanged++
			continue
		}
		if err := deliver(ctx, item, n); err != nil {
			return got, fmt.Errorf("end-to-end id %s: %w", n.EndToEndID, err)
		}
		if n.Outcome == sepa.Paid {
			got.Paid++
		} else {
			got.Returned++
		}
	}
	return got, nil
}

// changes reports whether a notice moves its item: a credit settles a
// submitted item, a return takes back a submitted or paid one.
func changes(item dbgen.CollectionItem, n sepa.Notice) bool {
	if n.Outcome == sepa.Paid {
		return item.Status == "submitted"
	}
	return item.Status == "submitted" || item.Status == "paid"
}

// ApplyOwn applies a notice in a transaction of its own: for contracts
// whose workflow has ended, and for tests of this package.
func (r *Runner) ApplyOwn(ctx context.Context, _ dbgen.CollectionItem, n sepa.Notice) error {
	return r.Store.InTx(ctx, func(q *dbgen.Queries) error {
		_, _, err := ApplyNotice(ctx, q, n)
		return err
	})
}

// ApplyNotice applies one notice in the caller's transaction: a booked
// credit settles its item and its installment or charge (paid), a
// returned debit returns its item with the reason and makes the
// installment or charge failed, owed again, each with its journal. A
// notice whose item has moved already changes nothing.
func ApplyNotice(ctx context.Context, q *dbgen.Queries, n sepa.Notice) (Applied, dbgen.CollectionItem, error) {
	item, err := q.LockCollectionItem(ctx, string(n.EndToEndID))
	if db.IsNotFound(err) {
		return Unknown, item, nil
	}
	if err != nil {
		return 0, item, err
	}
	if n.Amount != item.Amount {
		return 0, item, fmt.Errorf("the bank reports %d cents for %s, the item was %d", n.Amount, n.EndToEndID, item.Amount)
	}
	settled := n.BookingDate.Midnight(time.UTC)
	if n.BookingDate.IsZero() {
		settled = time.Now().UTC()
	}
	var outcome Applied
	switch n.Outcome {
	case sepa.Paid:
		outcome, err = settle(ctx, q, item, settled)
	case sepa.Returned:
		outcome, err = giveBack(ctx, q, item, n.Reason, settled)
	default:
		err = fmt.Errorf("unknown outcome %q", n.Outcome)
	}
	return outcome, item, err
}

// settle marks a submitted item paid, with its installment or charge.
func settle(ctx context.Context, q *dbgen.Queries, item dbgen.CollectionItem, at time.Time) (Applied, error) {
	moved, err := q.SettleCollectionItem(ctx, dbgen.SettleCollectionItemParams{ID: item.ID, SettledAt: &at})
	if err != nil || moved == 0 {
		return Unchanged, err
	}
	if err := moveOwed(ctx, q, item, contracts.InstallmentPaid); err != nil {
		return 0, err
	}
	return Paid, postPaid(ctx, q, item)
}

// giveBack marks a submitted or paid item returned with its reason, and
// its installment or charge failed.
func giveBack(ctx context.Context, q *dbgen.Queries, item dbgen.CollectionItem, reason sepa.ReturnReason, at time.Time) (Applied, error) {
	if reason == "" {
		return 0, errors.New("a returned collection has no reason code")
	}
	moved, err := q.ReturnCollectionItem(ctx, dbgen.ReturnCollectionItemParams{ID: item.ID, Reason: string(reason), SettledAt: &at})
	if err != nil || moved == 0 {
		return Unchanged, err
	}
	if err := moveOwed(ctx, q, item, contracts.InstallmentFailed); err != nil {
		return 0, err
	}
	return Returned, postReturned(ctx, q, item, item.Status == "paid")
}

// moveOwed moves the item's installment or charge to paid or failed from
// every status the installment table lets reach it. A failed installment
// presented again stays failed when that collection is returned too.
func moveOwed(ctx context.Context, q *dbgen.Queries, item dbgen.CollectionItem, to contracts.InstallmentStatus) error {
	var from []string
	for _, s := range []contracts.InstallmentStatus{contracts.InstallmentDue, contracts.InstallmentFailed, contracts.InstallmentPaid} {
		if s.CanMoveTo(to) || s == to && to == contracts.InstallmentFailed {
			from = append(from, string(s))
		}
	}
	if item.ChargeID != nil {
		_, err := q.SetChargeStatus(ctx, dbgen.SetChargeStatusParams{ToStatus: string(to), ID: *item.ChargeID, FromStatuses: from})
		return err
	}
	for _, s := range from {
		n, err := q.SetInstallmentStatus(ctx, dbgen.SetInstallmentStatusParams{
			ContractID: item.ContractID, Number: *item.InstallmentNumber, FromStatus: s, ToStatus: string(to),
		})
		if err != nil || n > 0 {
			return err
		}
	}
	return fmt.Errorf("installment %d of contract %s cannot become %s", *item.InstallmentNumber, item.ContractID, to)
}
