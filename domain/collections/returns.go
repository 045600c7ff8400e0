package collections

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"

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

// ImportNotifications applies a camt.054 notification: a booked credit
// settles its item and its installment or charge (paid), a returned
// debit returns its item with the reason and makes the installment or
// charge failed, owed again. Each notice is one transaction with its
// journal; a notice whose item has moved already changes nothing, so
// importing a file twice changes nothing.
func (r *Runner) ImportNotifications(ctx context.Context, file io.Reader) (Imported, error) {
	var got Imported
	for n, err := range sepa.ReadNotifications(file) {
		if err != nil {
			return got, err
		}
		outcome, err := r.apply(ctx, n)
		if err != nil {
			return got, fmt.Errorf("end-to-end id %s: %w", n.EndToEndID, err)
		}
		switch outcome {
		case applyPaid:
			got.Paid++
		case applyReturned:
			got.Returned++
		case applyUnchanged:
			got.Unchanged++
		default:
			got.Unknown++
		}
	}
	return got, nil
}

// applied is what one notice did.
type applied int

const (
	applyUnknown applied = iota
	applyUnchanged
	applyPaid
	applyReturned
)

// apply applies one notice in its transaction.
func (r *Runner) apply(ctx context.Context, n sepa.Notice) (applied, error) {
	var outcome applied
	err := pgx.BeginFunc(ctx, r.Store.Pool, func(tx pgx.Tx) error {
		q := r.Store.Queries.WithTx(tx)
		item, err := q.LockCollectionItem(ctx, string(n.EndToEndID))
		if db.IsNotFound(err) {
			outcome = applyUnknown
			return nil
		}
		if err != nil {
			return err
		}
		if n.Amount != item.Amount {
			return fmt.Errorf("the bank reports %d cents, the item was %d", n.Amount, item.Amount)
		}
		settled := n.BookingDate.Midnight(time.UTC)
		if n.BookingDate.IsZero() {
			settled = time.Now().UTC()
		}
		switch n.Outcome {
		case sepa.Paid:
			outcome, err = settle(ctx, tx, q, item, settled)
		case sepa.Returned:
			outcome, err = giveBack(ctx, tx, q, item, n.Reason, settled)
		default:
			err = fmt.Errorf("unknown outcome %q", n.Outcome)
		}
		return err
	})
	return outcome, err
}

// settle marks a submitted item paid, with its installment or charge.
func settle(ctx context.Context, tx pgx.Tx, q *dbgen.Queries, item dbgen.CollectionItem, at time.Time) (applied, error) {
	moved, err := q.SettleCollectionItem(ctx, dbgen.SettleCollectionItemParams{ID: item.ID, SettledAt: &at})
	if err != nil || moved == 0 {
		return applyUnchanged, err
	}
	if err := moveOwed(ctx, tx, q, item, contracts.InstallmentPaid); err != nil {
		return 0, err
	}
	return applyPaid, postPaid(ctx, q, item)
}

// giveBack marks a submitted or paid item returned with its reason, and
// its installment or charge failed.
func giveBack(ctx context.Context, tx pgx.Tx, q *dbgen.Queries, item dbgen.CollectionItem, reason sepa.ReturnReason, at time.Time) (applied, error) {
	if reason == "" {
		return 0, errors.New("a returned collection has no reason code")
	}
	moved, err := q.ReturnCollectionItem(ctx, dbgen.ReturnCollectionItemParams{ID: item.ID, Reason: string(reason), SettledAt: &at})
	if err != nil || moved == 0 {
		return applyUnchanged, err
	}
	if err := moveOwed(ctx, tx, q, item, contracts.InstallmentFailed); err != nil {
		return 0, err
	}
	return applyReturned, postReturned(ctx, q, item, item.Status == "paid")
}

// moveCharge moves a charge's status from one of the statuses the table
// allows; it writes contract_charges.status (00099) by hand until sqlc's
// schema has it.
const moveCharge = `UPDATE contract_charges SET status = $2 WHERE id = $1 AND status = ANY ($3::text[])`

// moveOwed moves the item's installment or charge to paid or failed from
// every status the installment table lets reach it. A failed installment
// presented again stays failed when that collection is returned too.
func moveOwed(ctx context.Context, tx pgx.Tx, q *dbgen.Queries, item dbgen.CollectionItem, to contracts.InstallmentStatus) error {
	var from []string
	for _, s := range []contracts.InstallmentStatus{contracts.InstallmentDue, contracts.InstallmentFailed, contracts.InstallmentPaid} {
		if s.CanMoveTo(to) || s == to && to == contracts.InstallmentFailed {
			from = append(from, string(s))
		}
	}
	if item.ChargeID != nil {
		_, err := tx.Exec(ctx, moveCharge, *item.ChargeID, string(to), from)
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
