package activities

import (
	"context"
	"fmt"
	"slices"

	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/civil"
)

// ContractCollection applies a bank's notice about one of the contract's
// collections: paid, or returned with a reason.
type ContractCollection struct {
	ContractTransition
	Notice CollectionNotice
}

// CollectionNotice is a bank's notice (sepa.Notice) as workflows carry
// it: what became of which collection, for how much, and the day the bank
// booked it when it says.
type CollectionNotice struct {
	EndToEndID sepa.EndToEndID
	Outcome    sepa.Outcome
	Amount     int64
	Reason     sepa.ReturnReason
	BookedOn   *civil.Date
}

// NoticeOf is a bank's notice as workflows carry it.
func NoticeOf(n sepa.Notice) CollectionNotice {
	c := CollectionNotice{EndToEndID: n.EndToEndID, Outcome: n.Outcome, Amount: n.Amount, Reason: n.Reason}
	if !n.BookingDate.IsZero() {
		c.BookedOn = &n.BookingDate
	}
	return c
}

// notice is the notice back in package sepa's form.
func (c CollectionNotice) notice() sepa.Notice {
	n := sepa.Notice{EndToEndID: c.EndToEndID, Outcome: c.Outcome, Amount: c.Amount, Reason: c.Reason}
	if c.BookedOn != nil {
		n.BookingDate = *c.BookedOn
	}
	return n
}

// ContractCollected is what the notice did: whether it changed the
// collection, and whether the contract owes a failed installment after it.
type ContractCollected struct {
	Progress  ContractProgress
	Changed   bool
	InArrears bool
}

// SettleCollection applies a notice in one transaction with its events:
// the collection, its installment or charge and their journal
// (collections.ApplyNotice); a return announces installment.failed, and
// contract.in_arrears when the contract owed nothing failed before; a
// payment that leaves nothing failed announces contract.arrears_cleared.
// A notice applied already changes nothing.
func (a *Contracts) SettleCollection(ctx context.Context, in ContractCollection) (ContractCollected, error) {
	var out ContractCollected
	err := changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		if _, err := q.LockRentalContract(ctx, dbgen.LockRentalContractParams{SellerID: in.SellerID, ID: in.ContractID}); err != nil {
			return err
		}
		before, err := q.CountFailedInstallments(ctx, in.ContractID)
		if err != nil {
			return err
		}
		applied, item, err := collections.ApplyNotice(ctx, q, in.Notice.notice())
		if err != nil {
			return err
		}
		if applied != collections.Unknown && item.ContractID != in.ContractID {
			return temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("collection %s belongs to contract %s, not %s", item.EndToEndID, item.ContractID, in.ContractID), "CollectionMismatch", nil)
		}
		after, err := q.CountFailedInstallments(ctx, in.ContractID)
		if err != nil {
			return err
		}
		out.Changed, out.InArrears = applied == collections.Paid || applied == collections.Returned, after > 0
		emit := func(t webhook.EventType, what string) error {
			return a.emitContract(ctx, q, fx, in.SellerID, in.ContractID, t, "collection/"+item.ID.String()+"/"+what)
		}
		switch {
		case applied == collections.Returned:
			if err := emit(webhook.InstallmentFailed, "returned"); err != nil {
				return err
			}
			if before == 0 && after > 0 {
				err = emit(webhook.ContractInArrears, "in_arrears")
			}
		case applied == collections.Paid && before > 0 && after == 0:
			err = emit(webhook.ContractArrearsCleared, "arrears_cleared")
		}
		if err != nil {
			return err
		}
		out.Progress, err = progressOf(ctx, q, in.SellerID, in.ContractID)
		return err
	})
	return out, err
}

// ContractReminder is a reminder stage (from 1) of arrears that began on
// Since.
type ContractReminder struct {
	ContractTransition
	Stage int
	Since civil.Date
}

// Remind records a reminder stage with its event (the row's,
// contract.payment_reminder). The fee stage adds the flat fee of §288 (5)
// BGB and, for a business customer, default interest on the failed
// installments from Since to the stage's day (§288 (2) BGB), each a charge
// with its journal, keyed by the arrears' start so a retried stage adds
// them once.
func (a *Contracts) Remind(ctx context.Context, in ContractReminder) (ContractProgress, error) {
	what := fmt.Sprintf("reminder/%s/%d", in.Since, in.Stage)
	return a.change(ctx, in.ContractTransition, named(what), func(q *dbgen.Queries, fx *effects, row dbgen.RentalContract) error {
		if in.Stage != collections.FeeStage {
			return nil
		}
		key := in.Since.String()
		fee := pricing.Money{Currency: row.Currency, Net: collections.FlatFee, Gross: collections.FlatFee}
		if _, err := a.addKeyedCharge(ctx, q, fx, row.ID, contracts.ChargeDunningFee, key, fee, in.Today); err != nil {
			return err
		}
		order, err := orders.Load(ctx, q, in.SellerID, row.OrderID)
		if err != nil || order.Document.Customer.Company == nil {
			return err
		}
		owed, err := q.SumFailedInstallments(ctx, row.ID)
		if err != nil {
			return err
		}
		interest := collections.DefaultInterest(owed, a.BaseRateBP, in.Since, in.Today)
		if interest == 0 {
			return nil
		}
		amount := pricing.Money{Currency: row.Currency, Net: interest, Gross: interest}
		_, err = a.addKeyedCharge(ctx, q, fx, row.ID, contracts.ChargeDefaultInterest, key, amount, in.Today)
		return err
	})
}

// WriteOff ends a defaulted contract as written off: every owed
// installment and charge is waived and their sum leaves the receivable as
// an expense, in one transaction. An installment whose collection is still
// open stays with its collection (in collection, not receivable).
func (a *Contracts) WriteOff(ctx context.Context, in ContractTransition) (ContractProgress, error) {
	return a.change(ctx, in, named(string(in.To)), func(q *dbgen.Queries, _ *effects, row dbgen.RentalContract) error {
		stored, err := contracts.Load(ctx, q, in.SellerID, row.ID)
		if err != nil {
			return err
		}
		open, err := q.ListOpenCollectionInstallments(ctx, row.ID)
		if err != nil {
			return err
		}
		var owed int64
		if s := stored.Schedule; s != nil {
			for _, inst := range s.Installments {
				if !inst.Status.Owed() || slices.Contains(open, int32(inst.Number)) {
					continue
				}
				if err := moveInstallment(ctx, q, row.ID, inst, contracts.InstallmentWaived); err != nil {
					return err
				}
				// A due installment's waiver reverses its journal
				// (moveInstallment); a failed one's is written off.
				if inst.Status == contracts.InstallmentFailed {
					owed += inst.Amount.Gross
				}
			}
		}
		charges, err := q.WaiveOwedCharges(ctx, row.ID)
		if err != nil {
			return err
		}
		for _, gross := range charges {
			owed += gross
		}
		return collections.PostWriteOff(ctx, q, row.ID, owed)
	})
}

// TerminateAndClaim ends a defaulted contract as terminated and claims
// what it would still have paid: its installments not yet due are waived
// and their sum becomes one claim charge, due on the day, with its
// journal.
func (a *Contracts) TerminateAndClaim(ctx context.Context, in ContractTransition) (ContractProgress, error) {
	return a.change(ctx, in, named(string(in.To)), func(q *dbgen.Queries, fx *effects, row dbgen.RentalContract) error {
		stored, err := contracts.Load(ctx, q, in.SellerID, row.ID)
		if err != nil || stored.Schedule == nil {
			return err
		}
		claim := pricing.Money{Currency: row.Currency}
		for _, inst := range stored.Schedule.Installments {
			if inst.Status != contracts.InstallmentScheduled {
				continue
			}
			if err := moveInstallment(ctx, q, row.ID, inst, contracts.InstallmentWaived); err != nil {
				return err
			}
			claim.Net += inst.Amount.Net
			claim.Gross += inst.Amount.Gross
		}
		if claim.Gross == 0 {
			return nil
		}
		_, err = a.addKeyedCharge(ctx, q, fx, row.ID, contracts.ChargeClaim, "", claim, in.Today)
		return err
	})
}
