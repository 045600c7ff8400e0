package services

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/console"
)

// MoneyPageSize is how many rows a page of the collections' and payouts'
// lists shows.
const MoneyPageSize = 50

// InstallmentCursor names the last installment of a page: the moment it
// is listed by (its due date, or when it failed), its contract and number.
// The zero cursor starts at the first.
type InstallmentCursor struct {
	At       time.Time
	Contract uuid.UUID
	Number   int32
}

// InstallmentsDue is a page of every seller's installments due or to come,
// by due date, after the cursor.
func (c *Console) InstallmentsDue(ctx context.Context, after InstallmentCursor) ([]dbgen.ListUpcomingInstallmentsRow, error) {
	return c.Offers.Store.ListUpcomingInstallments(ctx, dbgen.ListUpcomingInstallmentsParams{
		AfterDate: after.At, AfterContract: after.Contract, AfterNumber: after.Number, PageSize: MoneyPageSize,
	})
}

// FailedInstallments is a page of every seller's failed installments, in
// the order they failed, after the cursor.
func (c *Console) FailedInstallments(ctx context.Context, after InstallmentCursor) ([]dbgen.ListFailedInstallmentsRow, error) {
	return c.Offers.Store.ListFailedInstallments(ctx, dbgen.ListFailedInstallmentsParams{
		AfterAt: after.At, AfterContract: after.Contract, AfterNumber: after.Number, PageSize: MoneyPageSize,
	})
}

// ContractsInArrears is a page of the contracts owing failed installments,
// longest in arrears first, after the contract (afterAt, afterID).
func (c *Console) ContractsInArrears(ctx context.Context, afterAt time.Time, afterID uuid.UUID) ([]dbgen.ListContractsInArrearsRow, error) {
	return c.Offers.Store.ListContractsInArrears(ctx, dbgen.ListContractsInArrearsParams{
		AfterAt: afterAt, AfterContract: afterID, PageSize: MoneyPageSize,
	})
}

// newest is the cursor of a newest-first list's first page: after every
// row there is.
func newest(beforeAt time.Time, beforeID uuid.UUID) (time.Time, uuid.UUID) {
	if beforeAt.IsZero() {
		return time.Now().Add(time.Hour), uuid.Max
	}
	return beforeAt, beforeID
}

// CollectionFiles is a page of the collection runs' files, newest first,
// before the file (beforeAt, beforeID), or from the newest.
func (c *Console) CollectionFiles(ctx context.Context, beforeAt time.Time, beforeID uuid.UUID) ([]dbgen.ListCollectionFilesBeforeRow, error) {
	beforeAt, beforeID = newest(beforeAt, beforeID)
	return c.Offers.Store.ListCollectionFilesBefore(ctx, dbgen.ListCollectionFilesBeforeParams{
		BeforeAt: beforeAt, BeforeID: beforeID, PageSize: MoneyPageSize,
	})
}

// Payouts is a page of every seller's payouts, newest first, before the
// payout (beforeAt, beforeID), or from the newest.
func (c *Console) Payouts(ctx context.Context, beforeAt time.Time, beforeID uuid.UUID) ([]dbgen.ListPayoutsBeforeRow, error) {
	beforeAt, beforeID = newest(beforeAt, beforeID)
	return c.Offers.Store.ListPayoutsBefore(ctx, dbgen.ListPayoutsBeforeParams{
		BeforeAt: beforeAt, BeforeID: beforeID, PageSize: MoneyPageSize,
	})
}

// ErrNoPayoutFile is a payout not paid yet: no file holds it.
var ErrNoPayoutFile = errors.New("the payout is not paid yet")

// PayoutFile is the pain.001 file that paid a payout, as sent to the bank.
func (c *Console) PayoutFile(ctx context.Context, payoutID uuid.UUID) (dbgen.PayoutFile, error) {
	p, err := c.Offers.Store.GetPayoutForOperator(ctx, payoutID)
	if db.IsNotFound(err) {
		return dbgen.PayoutFile{}, ErrPayoutNotFound
	}
	if err != nil {
		return dbgen.PayoutFile{}, err
	}
	if p.FileID == nil {
		return dbgen.PayoutFile{}, ErrNoPayoutFile
	}
	return c.Offers.Store.GetPayoutFile(ctx, *p.FileID)
}

// ImportReturnsAction is the audit log's name of an imported bank return
// file.
const ImportReturnsAction = "collections.import_returns"

// ImportReturns imports a camt.054 notification for an operator, as
// `tenure collections returns import` does (Collections.ImportReturns),
// and writes the import to the audit log: the file's name as its target,
// what it changed as its detail. A file that cannot be read is refused and
// changes nothing; an import failing on the way is written as failed with
// what it changed before.
func (c *Console) ImportReturns(ctx context.Context, who console.Actor, name string, file io.ReadSeeker) (collections.Imported, error) {
	got, err := c.Collections.ImportReturns(ctx, file)
	outcome := console.Succeeded
	var unreadable *NotificationError
	switch {
	case errors.As(err, &unreadable):
		outcome = console.Refused
	case err != nil:
		outcome = console.Failed
	}
	detail := fmt.Sprintf("%d paid, %d returned, %d unchanged, %d not Tenure's", got.Paid, got.Returned, got.Unchanged, got.Unknown)
	if err != nil {
		detail += ": " + err.Error()
	}
	if auditErr := c.Accounts.Audit(ctx, who.Entry(ImportReturnsAction, "camt.054 "+name, detail, outcome)); auditErr != nil {
		return got, errors.Join(err, auditErr)
	}
	return got, err
}
