package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// Contracts persists the changes of contract workflows, each in one
// transaction with the events it causes. The workflow decides every
// change from its transition table and hands the day of the contract's
// clock it is made on; the activities price and schedule with package
// contracts.
type Contracts struct {
	Store      *db.Store
	Dispatcher *webhook.Dispatcher
	// Policy is the deployment's; a seller's own residual value replaces
	// its ResidualBasisPoints.
	Policy contracts.Policy
	// BaseRateBP is the base rate default interest adds its points to
	// (collections.base_rate_bp).
	BaseRateBP int64
	// Invoicing issues the invoices of installments falling due (in a
	// transaction of their own after the change) and of charges (in the
	// change's transaction); nil issues none (a worker without the
	// checkouts' mandates).
	Invoicing *invoicing.Issuing
	Logger    *slog.Logger
	Metrics   *telemetry.Metrics
}

// contractEntity names the contract's state machine in the transition
// metrics.
const contractEntity = "contract"

// ContractRef names a contract to an activity that needs nothing else.
type ContractRef struct {
	ContractID uuid.UUID
	SellerID   uuid.UUID
}

// ContractTransition asks for one change of a contract as its workflow's
// table declares it: the status it leaves and the one it reaches (the same
// for the changes that keep it), the event announcing it ("" for none), on
// a day of the contract's clock.
type ContractTransition struct {
	ContractID uuid.UUID
	SellerID   uuid.UUID
	From       contracts.Status
	To         contracts.Status
	Event      webhook.EventType
	Today      civil.Date
}

// ContractProgress is what a contract's workflow needs to know of it to
// decide what comes next and when: its status, the due date of its next
// scheduled installment, the notice and end dates of its current term, the
// end of its schedule (month by month runs beyond the term), and how many
// of its assets are back. Dates are nil when they do not apply yet.
type ContractProgress struct {
	Status      contracts.Status
	NextDue     *civil.Date
	NoticeDate  *civil.Date
	EndDate     *civil.Date
	ScheduleEnd *civil.Date
	Assets      int
	Returned    int
}

// AllReturned reports whether every asset of the contract is back.
func (p ContractProgress) AllReturned() bool { return p.Assets > 0 && p.Returned == p.Assets }

// ContractOpened is what opening a contract found: where it is, and what
// happened to its order before its workflow ran (a contract of an order
// confirmed before contracts ran, started by the backfill).
type ContractOpened struct {
	Progress ContractProgress
	// OrderCanceled is set when the contract's order was cancelled.
	OrderCanceled bool
	// ShippedAt is when the last of the contract's assets was shipped, if
	// they all were.
	ShippedAt *time.Time
}

// ContractStart starts a contract's term on a day.
type ContractStart struct {
	ContractTransition
	On civil.Date
}

// ContractFallingDue makes due the scheduled installments due on or before
// a day. Since is the due date of the first of them as the workflow saw it
// (its progress's NextDue): the invoices issued after the change bill the
// installments due from then on, so an installment an earlier change left
// uninvoiced (its order cannot be invoiced) is not tried again; the zero
// date bounds nothing.
type ContractFallingDue struct {
	ContractTransition
	Since   civil.Date
	Through civil.Date
}

// ContractGrowth adds a month to a contract running month by month whose
// schedule ends on After; a schedule that ends later has grown already.
type ContractGrowth struct {
	ContractTransition
	After civil.Date
}

// ContractExtension extends a contract in a mode; WithoutChoice marks the
// month-by-month continuation of a contract whose end came without a
// choice.
type ContractExtension struct {
	ContractTransition
	Mode          contracts.ExtensionMode
	WithoutChoice bool
}

// ReturnedAsset is one asset given back.
type ReturnedAsset struct {
	SerialNumber string
	TrackingURL  string
}

// ContractReturn records assets given back. ReturnID is fixed by the
// workflow, so a retried recording finds its rows.
type ContractReturn struct {
	ContractTransition
	ReturnID uuid.UUID
	Assets   []ReturnedAsset
}

// ContractQuoting asks for an early termination quote on a day.
type ContractQuoting struct {
	ContractRef
	Today civil.Date
}

// ContractTermination accepts a termination quote.
type ContractTermination struct {
	ContractTransition
	QuoteID uuid.UUID
}

// ContractClock stores how far a sandbox contract's clock is ahead of real
// time.
type ContractClock struct {
	ContractRef
	Offset time.Duration
}

// contractNamespace scopes the ids the contract activities derive.
var contractNamespace = uuid.MustParse("a4c1e3f2-7b6d-5e48-9c0a-1d2e3f4a5b6c")

// derivedID is a stable id of something a contract's change makes, so a
// retried change finds what it made.
func derivedID(contractID uuid.UUID, what string) uuid.UUID {
	return uuid.NewSHA1(contractNamespace, []byte(contractID.String()+"/"+what))
}

// Open opens a contract whose workflow starts: a contract written before
// contracts ran has its rental computed again from its order line and its
// assets linked; it reports where the contract is and what its order did
// meanwhile. It changes nothing the second time.
func (a *Contracts) Open(ctx context.Context, ref ContractRef) (ContractOpened, error) {
	var opened ContractOpened
	err := a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		row, err := q.LockRentalContract(ctx, dbgen.LockRentalContractParams{SellerID: ref.SellerID, ID: ref.ContractID})
		if err != nil {
			return err
		}
		order, err := orders.Load(ctx, q, ref.SellerID, row.OrderID)
		if err != nil {
			return err
		}
		if row.Legacy {
			if err := openLegacy(ctx, q, row, order.Document); err != nil {
				return err
			}
		}
		opened.OrderCanceled = orders.Status(order.Row.Status) == orders.Canceled
		if opened.ShippedAt, err = lastShipment(ctx, q, row.ID); err != nil {
			return err
		}
		opened.Progress, err = progressOf(ctx, q, ref.SellerID, ref.ContractID)
		return err
	})
	return opened, err
}

// lastShipment is when the last of a contract's assets was shipped, nil
// while one is not.
func lastShipment(ctx context.Context, q *dbgen.Queries, contractID uuid.UUID) (*time.Time, error) {
	assets, err := q.ListContractShipments(ctx, &contractID)
	if err != nil || len(assets) == 0 {
		return nil, err
	}
	var last time.Time
	for _, a := range assets {
		if a.ShippedAt == nil {
			return nil, nil
		}
		if a.ShippedAt.After(last) {
			last = *a.ShippedAt
		}
	}
	return &last, nil
}

// openLegacy computes a legacy contract's rental from its order line, as a
// contract written today has it, and links the assets it rents.
func openLegacy(ctx context.Context, q *dbgen.Queries, row dbgen.RentalContract, doc orders.Document) error {
	line := int(row.LinePosition)
	if line >= len(doc.Lines) {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("contract %s names line %d its order lacks", row.ID, line), "ContractLineMissing", nil)
	}
	rental, err := contracts.RentalOf(doc.Lines[line])
	if err != nil {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("contract %s: %v", row.ID, err), "ContractNotRented", err)
	}
	err = q.SetContractRental(ctx, dbgen.SetContractRentalParams{
		ID: row.ID, MonthlyNet: rental.Monthly.Net, MonthlyGross: rental.Monthly.Gross, TaxRate: rental.Monthly.TaxRate,
		Currency: rental.Monthly.Currency, PurchaseNet: rental.PurchaseNet, DurationMonths: int32(rental.Months),
	})
	if err != nil {
		return err
	}
	return linkAssets(ctx, q, row.ID, row.OrderID, doc, line)
}

// linkAssets names a contract on the assets it rents.
func linkAssets(ctx context.Context, q *dbgen.Queries, contractID, orderID uuid.UUID, doc orders.Document, line int) error {
	positions, err := contracts.AssetPositions(doc, line)
	if err != nil {
		return err
	}
	return q.LinkContractAssets(ctx, dbgen.LinkContractAssetsParams{ContractID: &contractID, OrderID: orderID, Positions: positions})
}

// Start starts a contract's term on a day: its schedule of installments,
// the end and notice dates, and the contract.started event.
func (a *Contracts) Start(ctx context.Context, in ContractStart) (ContractProgress, error) {
	return a.change(ctx, in.ContractTransition, named("started"), func(q *dbgen.Queries, _ *effects, row dbgen.RentalContract) error {
		rental := contracts.RentalOfRow(row)
		term, err := contracts.NewTerm(in.On, rental.Months)
		if err != nil {
			return err
		}
		schedule, err := contracts.NewSchedule(term, rental.Monthly)
		if err != nil {
			return err
		}
		if err := insertInstallments(ctx, q, row.ID, schedule.Installments); err != nil {
			return err
		}
		return a.setTerm(ctx, q, row, schedule, rental)
	})
}

// setTerm stores the dates of a contract's current term, the notice
// coming from the seller's policy.
func (a *Contracts) setTerm(ctx context.Context, q *dbgen.Queries, row dbgen.RentalContract, s contracts.Schedule, rental contracts.Rental) error {
	policy, err := a.policyOf(ctx, q, row.SellerID)
	if err != nil {
		return err
	}
	end, err := policy.EndOfTerm(s, rental)
	if err != nil {
		return err
	}
	start, last, notice := s.Term.Start.Midnight(time.UTC), end.EndDate.Midnight(time.UTC), end.NoticeDate.Midnight(time.UTC)
	return q.SetContractTerm(ctx, dbgen.SetContractTermParams{ID: row.ID, StartDate: &start, EndDate: &last, NoticeDate: &notice})
}

// insertInstallments stores installments of a schedule; those stored
// already stay as they are.
func insertInstallments(ctx context.Context, q *dbgen.Queries, contractID uuid.UUID, installments []contracts.Installment) error {
	for _, inst := range installments {
		err := q.CreateContractInstallment(ctx, dbgen.CreateContractInstallmentParams{
			ContractID: contractID, Number: int32(inst.Number),
			PeriodFrom: inst.Period.From.Midnight(time.UTC), PeriodTo: inst.Period.To.Midnight(time.UTC), DueDate: inst.DueDate.Midnight(time.UTC),
			Currency: inst.Amount.Currency, Net: inst.Amount.Net, Gross: inst.Amount.Gross, TaxRate: inst.Amount.TaxRate, Status: string(inst.Status),
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// FallDue makes due every scheduled installment due on or before a day, in
// order, each with its contract.installment_due event showing the contract
// as that installment became due. An installment due already is skipped,
// so a retry or a catch-up makes none due twice. The installments'
// invoices are issued once that change has committed, in a transaction of
// their own (invoiceDue): the falling-due transaction does not wait for
// the entity's invoice counter nor render documents, so the contracts
// falling due at one instant do not queue behind each other's invoices.
func (a *Contracts) FallDue(ctx context.Context, in ContractFallingDue) (ContractProgress, error) {
	progress, err := a.change(ctx, in.ContractTransition, nil, func(q *dbgen.Queries, fx *effects, row dbgen.RentalContract) error {
		_, err := a.makeDue(ctx, q, fx, in.ContractTransition, row, func(inst contracts.Installment) bool { return !inst.DueDate.After(in.Through) })
		return err
	})
	if err != nil {
		return progress, err
	}
	return progress, a.invoiceDue(ctx, in)
}

// invoiceDue issues the invoices of a contract's installments due from
// Since through Through that no invoice bills yet, in one transaction
// after the one that made them due, each with its invoice.issued event. It
// reads what to bill from the installments, so a FallDue retried after its
// change committed issues what the first run did not, and nothing twice.
// An installment another contract of the order billed (the month's
// invoice bills the order's installments of the month) is skipped without
// waiting for the order's lock.
func (a *Contracts) invoiceDue(ctx context.Context, in ContractFallingDue) error {
	if a.Invoicing == nil {
		return nil
	}
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		row, err := q.GetRentalContract(ctx, dbgen.GetRentalContractParams{SellerID: in.SellerID, ID: in.ContractID})
		if err != nil {
			return err
		}
		schedule, err := contracts.LoadSchedule(ctx, q, row)
		if err != nil || schedule == nil {
			return err
		}
		var unbilled []contracts.Installment
		for _, inst := range schedule.Installments {
			if inst.Status != contracts.InstallmentDue || inst.DueDate.Before(in.Since) || inst.DueDate.After(in.Through) {
				continue
			}
			invoiceID, err := q.GetInstallmentInvoice(ctx, dbgen.GetInstallmentInvoiceParams{ContractID: row.ID, Number: int32(inst.Number)})
			if err != nil {
				return err
			}
			if invoiceID == nil {
				unbilled = append(unbilled, inst)
			}
		}
		if len(unbilled) == 0 {
			return nil
		}
		if err := invoicing.LockOrder(ctx, q, row.OrderID); err != nil {
			return err
		}
		for _, inst := range unbilled {
			if err := a.invoiceInstallment(ctx, q, fx, row, inst, in.Today); err != nil {
				return err
			}
		}
		return nil
	})
}

// invoiceInstallment issues the invoice of an installment that fell due,
// unless one bills it already, with its invoice.issued event; the caller
// holds the order's invoicing lock (invoicing.LockOrder).
func (a *Contracts) invoiceInstallment(ctx context.Context, q *dbgen.Queries, fx *effects, row dbgen.RentalContract, inst contracts.Installment, today civil.Date) error {
	issued, err := a.Invoicing.InstallmentDue(ctx, q, row, inst, today)
	return a.announceInvoice(ctx, q, fx, issued, err)
}

// makeDue makes due the scheduled installments a rule picks, in order,
// each announced by the transition's event, and answers them as they were
// before.
func (a *Contracts) makeDue(ctx context.Context, q *dbgen.Queries, fx *effects, in ContractTransition, row dbgen.RentalContract, pick func(contracts.Installment) bool) ([]contracts.Installment, error) {
	schedule, err := contracts.LoadSchedule(ctx, q, row)
	if err != nil || schedule == nil {
		return nil, err
	}
	var made []contracts.Installment
	for _, inst := range schedule.Installments {
		if inst.Status != contracts.InstallmentScheduled || !pick(inst) {
			continue
		}
		if err := moveInstallment(ctx, q, in.ContractID, inst, contracts.InstallmentDue); err != nil {
			return nil, err
		}
		if err := postInstallmentDue(ctx, q, in.ContractID, inst); err != nil {
			return nil, err
		}
		if err := a.emitContract(ctx, q, fx, in.SellerID, in.ContractID, in.Event, "installment/"+strconv.Itoa(inst.Number)+"/due"); err != nil {
			return nil, err
		}
		made = append(made, inst)
	}
	return made, nil
}

// moveInstallment moves an installment's status as the installment table
// allows.
func moveInstallment(ctx context.Context, q *dbgen.Queries, contractID uuid.UUID, inst contracts.Installment, to contracts.InstallmentStatus) error {
	moved, err := inst.MoveTo(to)
	if err != nil {
		return err
	}
	_, err = q.SetInstallmentStatus(ctx, dbgen.SetInstallmentStatusParams{
		ContractID: contractID, Number: int32(inst.Number), FromStatus: string(inst.Status), ToStatus: string(moved.Status),
	})
	if err != nil || inst.Status != contracts.InstallmentDue || to != contracts.InstallmentWaived {
		return err
	}
	return postInstallmentForgiven(ctx, q, contractID, inst)
}

// GiveNotice moves a running contract to ending on its notice date, with
// its end-of-term options priced by the seller's policy, announced by
// contract.ending.
func (a *Contracts) GiveNotice(ctx context.Context, in ContractTransition) (ContractProgress, error) {
	var end *contracts.EndOfTerm
	source := func() string { return "ending/" + end.EndDate.String() }
	return a.change(ctx, in, source, func(q *dbgen.Queries, _ *effects, row dbgen.RentalContract) error {
		stored, err := contracts.Load(ctx, q, in.SellerID, in.ContractID)
		if err != nil {
			return err
		}
		if end, err = a.endOfTerm(ctx, q, stored); err != nil {
			return err
		}
		raw, err := json.Marshal(end)
		if err != nil {
			return err
		}
		return q.SetContractEndOfTerm(ctx, dbgen.SetContractEndOfTermParams{ID: row.ID, EndOfTerm: raw})
	})
}

// endOfTerm is the end of a started contract's current term with its
// options priced by the seller's policy.
func (a *Contracts) endOfTerm(ctx context.Context, q *dbgen.Queries, stored contracts.Stored) (*contracts.EndOfTerm, error) {
	if stored.Schedule == nil {
		return nil, fmt.Errorf("contract %s has no schedule to end", stored.ID)
	}
	policy, err := a.policyOf(ctx, q, stored.SellerID)
	if err != nil {
		return nil, err
	}
	end, err := policy.EndOfTerm(*stored.Schedule, stored.Rental)
	return &end, err
}

// Extend extends a contract: by a term (its schedule grows by the term
// extension's months at the reduced rate, with a new end and notice) or
// month by month (the schedule grows a month at a time from the end of
// the term on, Grow), announced by contract.extended. The options are those
// the notice priced.
func (a *Contracts) Extend(ctx context.Context, in ContractExtension) (ContractProgress, error) {
	var extensions int
	source := func() string { return "extended/" + strconv.Itoa(extensions) }
	return a.change(ctx, in.ContractTransition, source, func(q *dbgen.Queries, _ *effects, row dbgen.RentalContract) error {
		stored, err := contracts.Load(ctx, q, in.SellerID, in.ContractID)
		if err != nil {
			return err
		}
		extensions = len(stored.Extensions)
		end := stored.EndOfTerm
		if end == nil {
			if end, err = a.endOfTerm(ctx, q, stored); err != nil {
				return err
			}
		}
		ext, err := end.Extension(in.Mode)
		if err != nil {
			return err
		}
		if in.Mode == contracts.ExtendByTerm {
			grown, err := stored.Schedule.Extend(ext.Months, ext.Monthly)
			if err != nil {
				return err
			}
			if err := insertInstallments(ctx, q, row.ID, grown.Installments[len(stored.Schedule.Installments):]); err != nil {
				return err
			}
			if err := a.setTerm(ctx, q, row, grown, stored.Rental); err != nil {
				return err
			}
		}
		raw, err := json.Marshal(contracts.TakenExtension{Extension: ext, On: in.Today, WithoutChoice: in.WithoutChoice})
		if err != nil {
			return err
		}
		return q.AddContractExtension(ctx, dbgen.AddContractExtensionParams{ID: row.ID, Extension: raw})
	})
}

// Grow adds the next month to a contract running month by month, at its
// last installment's amount, once its schedule's end has passed; the
// month's installment falls due with FallDue.
func (a *Contracts) Grow(ctx context.Context, in ContractGrowth) (ContractProgress, error) {
	return a.change(ctx, in.ContractTransition, nil, func(q *dbgen.Queries, _ *effects, row dbgen.RentalContract) error {
		stored, err := contracts.Load(ctx, q, in.SellerID, in.ContractID)
		if err != nil {
			return err
		}
		s := stored.Schedule
		if s == nil || s.End() != in.After {
			return nil // grown already
		}
		grown, err := s.Extend(1, s.Installments[len(s.Installments)-1].Amount)
		if err != nil {
			return err
		}
		return insertInstallments(ctx, q, row.ID, grown.Installments[len(s.Installments):])
	})
}

// RecordReturn records assets of a contract given back on a day, by serial
// number with the return's tracking link. A serial number the contract
// did not rent, or one given back already, refuses the whole return.
func (a *Contracts) RecordReturn(ctx context.Context, in ContractReturn) (ContractProgress, error) {
	return a.change(ctx, in.ContractTransition, nil, func(q *dbgen.Queries, _ *effects, row dbgen.RentalContract) error {
		recorded, err := q.ContractReturnRecorded(ctx, dbgen.ContractReturnRecordedParams{ContractID: row.ID, ReturnID: in.ReturnID})
		if err != nil || recorded {
			return err
		}
		stored, err := contracts.Load(ctx, q, in.SellerID, in.ContractID)
		if err != nil {
			return err
		}
		listed := map[string]bool{}
		for _, r := range in.Assets {
			asset, err := returnable(stored.Assets, r.SerialNumber, listed)
			if err != nil {
				return err
			}
			err = q.CreateContractReturn(ctx, dbgen.CreateContractReturnParams{
				ContractID: row.ID, AssetID: asset.ID, ReturnID: in.ReturnID, SerialNumber: r.SerialNumber,
				TrackingUrl: r.TrackingURL, ReturnedOn: in.Today.Midnight(time.UTC),
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// returnable is the asset of a contract a return names by serial number,
// or the refusal of a serial number the contract did not rent, that is
// back already, or that the return lists twice.
func returnable(assets []contracts.Asset, serialNumber string, listed map[string]bool) (contracts.Asset, error) {
	if listed[serialNumber] {
		return contracts.Asset{}, refuse(refusal.New(refusal.InvalidReturn, "serial number %q is listed twice", serialNumber))
	}
	listed[serialNumber] = true
	for _, asset := range assets {
		if asset.SerialNumber == nil || *asset.SerialNumber != serialNumber {
			continue
		}
		if asset.Return != nil {
			return contracts.Asset{}, refuse(refusal.New(refusal.InvalidReturn, "serial number %q was returned on %s already", serialNumber, asset.Return.ReturnedOn))
		}
		return asset, nil
	}
	return contracts.Asset{}, refuse(refusal.New(refusal.InvalidReturn, "serial number %q is not an asset of this contract", serialNumber))
}

// BuyOut ends a contract by a buy-out: the residual value the notice priced
// becomes its final charge, due on the day, and the installments of the
// term not yet due fall due with it (a buy-out before the end of the term
// does not shorten what the customer owes), announced by contract.ended.
func (a *Contracts) BuyOut(ctx context.Context, in ContractTransition) (ContractProgress, error) {
	return a.change(ctx, in, named("ended"), func(q *dbgen.Queries, fx *effects, row dbgen.RentalContract) error {
		due := in
		due.Event = webhook.ContractInstallmentDue
		if err := a.makeAllDue(ctx, q, fx, due, row); err != nil {
			return err
		}
		stored, err := contracts.Load(ctx, q, in.SellerID, in.ContractID)
		if err != nil {
			return err
		}
		end := stored.EndOfTerm
		if end == nil {
			if end, err = a.endOfTerm(ctx, q, stored); err != nil {
				return err
			}
		}
		return a.addCharge(ctx, q, fx, row.ID, contracts.ChargeBuyOut, end.BuyOut, in.Today)
	})
}

// makeAllDue makes due every installment of a contract still scheduled and
// issues their invoices in the same transaction, the order's invoicing
// locked before the first moves (a buy-out is rare: its one transaction
// keeps the installments and the final charge together).
func (a *Contracts) makeAllDue(ctx context.Context, q *dbgen.Queries, fx *effects, in ContractTransition, row dbgen.RentalContract) error {
	if a.Invoicing != nil {
		if err := invoicing.LockOrder(ctx, q, row.OrderID); err != nil {
			return err
		}
	}
	made, err := a.makeDue(ctx, q, fx, in, row, func(contracts.Installment) bool { return true })
	if err != nil || a.Invoicing == nil {
		return err
	}
	for _, inst := range made {
		if err := a.invoiceInstallment(ctx, q, fx, row, inst, in.Today); err != nil {
			return err
		}
	}
	return nil
}

// addCharge records a contract's one-off charge, once, with its journal
// and its invoice.
func (a *Contracts) addCharge(ctx context.Context, q *dbgen.Queries, fx *effects, contractID uuid.UUID, kind contracts.ChargeKind, amount pricing.Money, due civil.Date) error {
	_, err := a.addKeyedCharge(ctx, q, fx, contractID, kind, "", amount, due)
	return err
}

// addKeyedCharge records a charge of a kind a contract may owe several
// times (the fees of each time it falls into arrears), told apart by key;
// its id derives from them, so a retried change finds it. The charge's
// journal is posted and its invoice issued on the day, in the change's
// transaction. It answers the charge's id.
func (a *Contracts) addKeyedCharge(ctx context.Context, q *dbgen.Queries, fx *effects, contractID uuid.UUID, kind contracts.ChargeKind, key string, amount pricing.Money, due civil.Date) (uuid.UUID, error) {
	what := "charge/" + string(kind)
	if key != "" {
		what += "/" + key
	}
	id := derivedID(contractID, what)
	err := q.CreateContractCharge(ctx, dbgen.CreateContractChargeParams{
		ID: id, ContractID: contractID, Kind: string(kind), Key: key,
		Currency: amount.Currency, Net: amount.Net, Gross: amount.Gross, TaxRate: amount.TaxRate, DueDate: due.Midnight(time.UTC),
	})
	if err != nil {
		return id, err
	}
	if err := postChargeDue(ctx, q, id, contractID, kind, amount); err != nil || a.Invoicing == nil {
		return id, err
	}
	issued, err := a.Invoicing.ChargeAdded(ctx, q, id, due)
	return id, a.announceInvoice(ctx, q, fx, issued, err)
}

// QuoteTermination prices ending a contract early on a day with the
// seller's policy and stores the quote. The same day and schedule give the
// same quote, stored once.
func (a *Contracts) QuoteTermination(ctx context.Context, in ContractQuoting) (contracts.StoredQuote, error) {
	var quote contracts.StoredQuote
	err := a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		stored, err := contracts.Load(ctx, q, in.SellerID, in.ContractID)
		if err != nil {
			return err
		}
		if stored.Schedule == nil {
			return fmt.Errorf("contract %s has no schedule to quote", stored.ID)
		}
		policy, err := a.policyOf(ctx, q, in.SellerID)
		if err != nil {
			return err
		}
		priced, err := policy.TerminationQuote(*stored.Schedule, in.Today)
		if err != nil {
			return err
		}
		raw, err := json.Marshal(priced)
		if err != nil {
			return err
		}
		id := derivedID(in.ContractID, fmt.Sprintf("quote/%s/%d/%d", in.Today, len(stored.Schedule.Installments), len(priced.Installments)))
		err = q.CreateTerminationQuote(ctx, dbgen.CreateTerminationQuoteParams{
			ID: id, ContractID: in.ContractID, QuoteDate: priced.Date.Midnight(time.UTC), ValidUntil: priced.ValidUntil.Midnight(time.UTC), Quote: raw,
		})
		if err != nil {
			return err
		}
		quote, err = contracts.LoadQuote(ctx, q, in.ContractID, id)
		return err
	})
	return quote, err
}

// Terminate ends a contract early by accepting a termination quote valid
// on the day: the installments it settles are waived, its total becomes
// the final charge, announced by contract.terminated. A quote the contract
// does not have, one expired or accepted, or one whose installments are no
// longer all scheduled, is refused.
func (a *Contracts) Terminate(ctx context.Context, in ContractTermination) (ContractProgress, error) {
	return a.change(ctx, in.ContractTransition, named("terminated"), func(q *dbgen.Queries, fx *effects, row dbgen.RentalContract) error {
		quote, err := contracts.LoadQuote(ctx, q, in.ContractID, in.QuoteID)
		if db.IsNotFound(err) {
			return refuse(refusal.New(refusal.InvalidQuote, "the contract has no termination quote %s", in.QuoteID))
		}
		if err != nil {
			return err
		}
		switch {
		case quote.AcceptedAt != nil:
			return refuse(refusal.New(refusal.InvalidQuote, "termination quote %s was accepted already", quote.ID))
		case !quote.ValidOn(in.Today):
			return refuse(refusal.New(refusal.InvalidQuote, "termination quote %s is valid from %s to %s, not on %s; ask for a new one", quote.ID, quote.Date, quote.ValidUntil, in.Today))
		}
		stored, err := contracts.Load(ctx, q, in.SellerID, in.ContractID)
		if err != nil {
			return err
		}
		for _, quoted := range quote.Installments {
			inst, ok := installment(stored.Schedule, quoted.Number)
			if !ok || inst.Status != contracts.InstallmentScheduled {
				return refuse(refusal.New(refusal.InvalidQuote, "the schedule changed since termination quote %s was made; ask for a new one", quote.ID))
			}
			if err := moveInstallment(ctx, q, row.ID, inst, contracts.InstallmentWaived); err != nil {
				return err
			}
		}
		if _, err := q.AcceptTerminationQuote(ctx, quote.ID); err != nil {
			return err
		}
		return a.addCharge(ctx, q, fx, row.ID, contracts.ChargeEarlyTermination, quote.Total, in.Today)
	})
}

// installment is the installment of a schedule with a number.
func installment(s *contracts.Schedule, number int) (contracts.Installment, bool) {
	if s == nil || number < 1 || number > len(s.Installments) {
		return contracts.Installment{}, false
	}
	return s.Installments[number-1], true
}

// Transition makes a change that is only a new status with its event:
// cancelling a contract before its term, ending one whose assets are all
// back after its end date.
func (a *Contracts) Transition(ctx context.Context, in ContractTransition) (ContractProgress, error) {
	return a.change(ctx, in, named(string(in.To)), nil)
}

// SetClock stores how far a sandbox contract's clock is ahead of real time.
func (a *Contracts) SetClock(ctx context.Context, in ContractClock) error {
	return a.Store.SetContractClock(ctx, dbgen.SetContractClockParams{ID: in.ContractID, ClockOffsetSeconds: int64(in.Offset / time.Second)})
}

// change makes a contract's change in one transaction: it locks the row,
// checks the contract is in the status the change leaves (a retried change
// whose first run committed finds it in the status it reaches, and does
// nothing), runs work, moves the status (setting the day it ended for a
// final one) and records the change's event, whose id derives from the
// contract and what source names after work ran (nil when work records its
// own events or the change has none). It answers the contract's progress
// after the change.
func (a *Contracts) change(ctx context.Context, in ContractTransition, source func() string, work func(q *dbgen.Queries, fx *effects, row dbgen.RentalContract) error) (ContractProgress, error) {
	var progress ContractProgress
	err := changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		row, err := q.LockRentalContract(ctx, dbgen.LockRentalContractParams{SellerID: in.SellerID, ID: in.ContractID})
		if err != nil {
			return err
		}
		switch status := contracts.Status(row.Status); {
		case status == in.To && in.From != in.To:
			// done by a run that committed
		case status != in.From:
			return temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("contract %s is %s, not %s", in.ContractID, status, in.From), "ContractStatusMismatch", nil)
		default:
			if err := a.apply(ctx, q, fx, in, row, source, work); err != nil {
				return err
			}
		}
		progress, err = progressOf(ctx, q, in.SellerID, in.ContractID)
		return err
	})
	return progress, err
}

// apply runs a change's work, moves the status and records the event.
func (a *Contracts) apply(ctx context.Context, q *dbgen.Queries, fx *effects, in ContractTransition, row dbgen.RentalContract, source func() string,
	work func(q *dbgen.Queries, fx *effects, row dbgen.RentalContract) error) error {
	if work != nil {
		if err := work(q, fx, row); err != nil {
			return err
		}
	}
	if in.From != in.To {
		var endedOn *time.Time
		if in.To.Final() {
			day := in.Today.Midnight(time.UTC)
			endedOn = &day
		}
		_, err := q.SetContractStatus(ctx, dbgen.SetContractStatusParams{
			SellerID: in.SellerID, ID: in.ContractID, FromStatus: string(in.From), ToStatus: string(in.To), EndedOn: endedOn,
		})
		if err != nil {
			return err
		}
		fx.moved(contractEntity, string(in.From), string(in.To))
	}
	if in.Event == "" || source == nil {
		return nil
	}
	return a.emitContract(ctx, q, fx, in.SellerID, in.ContractID, in.Event, source())
}

// named is the source of a change's event that names it alone.
func named(what string) func() string { return func() string { return what } }

// emitContract records a contract event with the contract as it stands in
// the transaction; its id derives from the contract and what happened, so
// a retried change records it once.
func (a *Contracts) emitContract(ctx context.Context, q *dbgen.Queries, fx *effects, sellerID, contractID uuid.UUID, eventType webhook.EventType, what string) error {
	stored, err := contracts.Load(ctx, q, sellerID, contractID)
	if err != nil {
		return err
	}
	payload, err := json.Marshal(stored)
	if err != nil {
		return err
	}
	return fx.emit(webhook.NewEvent{
		ID:       webhook.EventID(contracts.EventSource(contractID, what)),
		SellerID: sellerID,
		Type:     eventType,
		ObjectID: contractID,
		Payload:  payload,
	})
}

// policyOf is the policy of a seller: the deployment's, with the seller's
// own residual value if it has one.
func (a *Contracts) policyOf(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID) (contracts.Policy, error) {
	seller, err := q.GetSeller(ctx, sellerID)
	if err != nil {
		return contracts.Policy{}, err
	}
	p := a.Policy
	if seller.ContractResidualBasisPoints != nil {
		p.ResidualBasisPoints = *seller.ContractResidualBasisPoints
	}
	return p, nil
}

// progressOf is a contract's progress as it stands in the transaction.
func progressOf(ctx context.Context, q *dbgen.Queries, sellerID, contractID uuid.UUID) (ContractProgress, error) {
	stored, err := contracts.Load(ctx, q, sellerID, contractID)
	if err != nil {
		return ContractProgress{}, err
	}
	p := ContractProgress{Status: stored.Status, NoticeDate: stored.NoticeDate, EndDate: stored.EndDate, Assets: len(stored.Assets)}
	for _, asset := range stored.Assets {
		if asset.Return != nil {
			p.Returned++
		}
	}
	if s := stored.Schedule; s != nil {
		end := s.End()
		p.ScheduleEnd = &end
		for _, inst := range s.Installments {
			if inst.Status == contracts.InstallmentScheduled {
				due := inst.DueDate
				p.NextDue = &due
				break
			}
		}
	}
	return p, nil
}
