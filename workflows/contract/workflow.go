package contract

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// stepsPerRun is how many changes the clock makes in a run before it
// continues as new: a year of monthly installments, about a hundred events.
const stepsPerRun = 12

// returnNamespace scopes the return ids the workflow derives.
var returnNamespace = uuid.MustParse("5d0c2b7e-93a1-5f64-8e2d-4b7a6c1f0e39")

// Contract is the workflow of one rental contract.
func Contract(ctx workflow.Context, in Input) (Result, error) {
	loc, err := time.LoadLocation(in.Settings.Timezone)
	if err != nil {
		return Result{}, fmt.Errorf("contract %s: %w", in.ContractID, err)
	}
	w := &contractWorkflow{input: in, state: State{Status: Opening().To}}
	if in.State != nil {
		w.state = *in.State
	}
	w.clock = clock{loc: loc, offset: &w.state.ClockOffset}
	if err := w.setup(ctx); err != nil {
		return Result{}, err
	}
	return w.run(ctx)
}

type contractWorkflow struct {
	input Input
	state State
	clock clock
	guard *entity.Guard
	// shipped and canceled receive the order's signals.
	shipped, canceled workflow.ReceiveChannel
	// revision counts the changes of the state, so that a sleep ends on
	// any of them.
	revision int
	// steps counts the changes the clock made in this run.
	steps int
}

// a names the contract activities; the worker registers the real ones.
var a *activities.Contracts

func (w *contractWorkflow) setup(ctx workflow.Context) error {
	w.guard = entity.NewGuard(ctx)
	w.shipped = workflow.GetSignalChannel(ctx, OrderShipped)
	w.canceled = workflow.GetSignalChannel(ctx, OrderCanceled)
	handlers := []struct {
		trigger   statemachine.Trigger
		handler   any
		validator any
	}{
		{Deliver, w.deliver, func() error { return w.validate(Deliver) }},
		{Cancel, w.cancel, func() error { return w.validate(Cancel) }},
		{RecordReturn, w.recordReturn, w.validateReturn},
		{BuyOut, w.buyOut, func() error { return w.validate(BuyOut) }},
		{ExtendByTerm, w.extend, w.validateExtension},
		{QuoteTermination, w.quoteTermination, func() error { return w.validate(QuoteTermination) }},
		{Terminate, w.terminate, func(TerminateRequest) error { return w.validate(Terminate) }},
		{AdvanceClock, w.advanceClock, w.validateClockAdvance},
		{SettleCollection, w.settleCollection, func(CollectionRequest) error { return w.validate(SettleCollection) }},
		{WriteOff, w.writeOff, func() error { return w.validate(WriteOff) }},
		{TerminateAndClaim, w.terminateAndClaim, func() error { return w.validate(TerminateAndClaim) }},
	}
	for _, h := range handlers {
		err := workflow.SetUpdateHandlerWithOptions(ctx, h.trigger.Update, h.handler, workflow.UpdateHandlerOptions{Validator: h.validator})
		if err != nil {
			return err
		}
	}
	return nil
}

// validate refuses an update the current status does not allow, as the
// table says.
func (w *contractWorkflow) validate(t statemachine.Trigger) error {
	if Transitions.Allows(w.state.Status, t.Update) {
		return nil
	}
	return entity.Refuse(Transitions.Refusal(w.state.Status, t.Update))
}

// validateReturn refuses a return the status does not allow, or one that
// names no asset.
func (w *contractWorkflow) validateReturn(req ReturnRequest) error {
	if err := w.validate(RecordReturn); err != nil {
		return err
	}
	if len(req.Assets) == 0 {
		return entity.Refuse(refusal.New(refusal.InvalidReturn, "a return names at least one asset by its serial number"))
	}
	for i, r := range req.Assets {
		if r.SerialNumber == "" || r.TrackingURL == "" {
			return entity.Refuse(refusal.New(refusal.InvalidReturn, "asset %d of the return needs its serial number and the return's tracking link", i))
		}
	}
	return nil
}

// extensionTrigger is the trigger of an extension mode.
func extensionTrigger(mode contracts.ExtensionMode) (statemachine.Trigger, bool) {
	switch mode {
	case contracts.ExtendByTerm:
		return ExtendByTerm, true
	case contracts.ExtendMonthly:
		return ExtendMonthly, true
	}
	return statemachine.Trigger{}, false
}

// validateExtension refuses an unknown mode, and a mode the status does
// not allow: a contract going on month by month cannot be extended month
// by month.
func (w *contractWorkflow) validateExtension(req ExtendRequest) error {
	t, ok := extensionTrigger(req.Mode)
	if !ok {
		return entity.Refuse(refusal.New(refusal.StatusNotAllowed, "an extension's mode is %q or %q, not %q", contracts.ExtendByTerm, contracts.ExtendMonthly, req.Mode))
	}
	if err := w.validate(t); err != nil {
		return err
	}
	if _, ok := Transitions.Find(w.state.Status, t); !ok {
		return entity.Refuse(refusal.New(refusal.StatusNotAllowed, "contracts with status=%s cannot be extended in mode %s", w.state.Status, req.Mode))
	}
	return nil
}

// validateClockAdvance refuses to move the clock outside the sandbox, in a
// status that does not allow it, backwards, or by more than ten years.
func (w *contractWorkflow) validateClockAdvance(ctx workflow.Context, req AdvanceClockRequest) error {
	if !w.input.Settings.Sandbox {
		return entity.Refuse(refusal.New(refusal.InvalidClockAdvance, "only sandbox contracts have a clock to advance"))
	}
	if err := w.validate(AdvanceClock); err != nil {
		return err
	}
	_, err := w.clockTarget(ctx, req)
	return err
}

// clockTarget is the day an advance_clock request moves the clock to.
func (w *contractWorkflow) clockTarget(ctx workflow.Context, req AdvanceClockRequest) (civil.Date, error) {
	today := w.clock.today(ctx)
	switch {
	case (req.Months == 0) == (req.To == nil):
		return civil.Date{}, entity.Refuse(refusal.New(refusal.InvalidClockAdvance, "advance the clock by months or to a day, one of them"))
	case req.To != nil && !req.To.After(today):
		return civil.Date{}, entity.Refuse(refusal.New(refusal.InvalidClockAdvance, "the contract's clock reads %s and moves only forward, not to %s", today, *req.To))
	case req.To != nil && req.To.After(today.AddMonths(contracts.MaxClockAdvanceMonths)):
		return civil.Date{}, entity.Refuse(refusal.New(refusal.InvalidClockAdvance, "the clock moves at most %d months at once", contracts.MaxClockAdvanceMonths))
	case req.To != nil:
		return *req.To, nil
	case req.Months < 1 || req.Months > contracts.MaxClockAdvanceMonths:
		return civil.Date{}, entity.Refuse(refusal.New(refusal.InvalidClockAdvance, "the clock moves by 1 to %d months, not %d", contracts.MaxClockAdvanceMonths, req.Months))
	}
	return today.AddMonths(req.Months), nil
}

// change runs an update's change under the guard: the clock catches up
// first, so the change sees the contract as its today has it, and the
// status is checked again after.
func (w *contractWorkflow) change(ctx workflow.Context, t statemachine.Trigger, effect func(ctx workflow.Context) error) error {
	return w.guard.Do(ctx, func() error { return w.validate(t) }, func(ctx workflow.Context) error {
		if err := w.catchUp(ctx); err != nil {
			return err
		}
		if err := w.validate(t); err != nil {
			return err
		}
		return effect(ctx)
	})
}

// answer is what an update answers after its change.
func (w *contractWorkflow) answer(ctx workflow.Context) Answer {
	return Answer{Status: w.state.Status, Today: w.clock.today(ctx)}
}

func (w *contractWorkflow) deliver(ctx workflow.Context) (Answer, error) {
	err := w.change(ctx, Deliver, func(ctx workflow.Context) error {
		return w.start(ctx, w.clock.today(ctx))
	})
	return w.answer(ctx), err
}

func (w *contractWorkflow) cancel(ctx workflow.Context) (Answer, error) {
	err := w.change(ctx, Cancel, func(ctx workflow.Context) error {
		return w.move(ctx, Cancel)
	})
	return w.answer(ctx), err
}

// recordReturn records assets given back; the contract ends when the last
// is back after its end date (else on the day after it, by the clock).
func (w *contractWorkflow) recordReturn(ctx workflow.Context, req ReturnRequest) (Answer, error) {
	err := w.change(ctx, RecordReturn, func(ctx workflow.Context) error {
		// The return's id derives from the update's, so a workflow task
		// run again finds the rows its activity recorded.
		returnID := uuid.NewSHA1(returnNamespace, []byte(w.input.ContractID.String()+"/"+workflow.GetCurrentUpdateInfo(ctx).ID))
		row := Transitions.Must(w.state.Status, RecordReturn)
		p, err := entity.PersistResult(ctx, a.RecordReturn, activities.ContractReturn{
			ContractTransition: w.transition(ctx, row), ReturnID: returnID, Assets: req.Assets,
		})
		if err != nil {
			return err
		}
		if err := w.progressed(ctx, row, p); err != nil {
			return err
		}
		if p.AllReturned() && p.EndDate != nil && w.clock.today(ctx).After(*p.EndDate) {
			return w.move(ctx, CompleteReturn)
		}
		return nil
	})
	return w.answer(ctx), err
}

func (w *contractWorkflow) buyOut(ctx workflow.Context) (Answer, error) {
	err := w.change(ctx, BuyOut, func(ctx workflow.Context) error {
		row := Transitions.Must(w.state.Status, BuyOut)
		p, err := entity.PersistResult(ctx, a.BuyOut, w.transition(ctx, row))
		if err != nil {
			return err
		}
		return w.progressed(ctx, row, p)
	})
	return w.answer(ctx), err
}

func (w *contractWorkflow) extend(ctx workflow.Context, req ExtendRequest) (Answer, error) {
	t, _ := extensionTrigger(req.Mode)
	err := w.change(ctx, t, func(ctx workflow.Context) error {
		row := Transitions.Must(w.state.Status, t)
		p, err := entity.PersistResult(ctx, a.Extend, activities.ContractExtension{ContractTransition: w.transition(ctx, row), Mode: req.Mode})
		if err != nil {
			return err
		}
		return w.progressed(ctx, row, p)
	})
	return w.answer(ctx), err
}

func (w *contractWorkflow) quoteTermination(ctx workflow.Context) (contracts.StoredQuote, error) {
	var quote contracts.StoredQuote
	err := w.change(ctx, QuoteTermination, func(ctx workflow.Context) (err error) {
		quote, err = entity.PersistResult(ctx, a.QuoteTermination, activities.ContractQuoting{ContractRef: w.ref(), Today: w.clock.today(ctx)})
		return err
	})
	return quote, err
}

func (w *contractWorkflow) terminate(ctx workflow.Context, req TerminateRequest) (Answer, error) {
	err := w.change(ctx, Terminate, func(ctx workflow.Context) error {
		row := Transitions.Must(w.state.Status, Terminate)
		p, err := entity.PersistResult(ctx, a.Terminate, activities.ContractTermination{ContractTransition: w.transition(ctx, row), QuoteID: req.QuoteID})
		if err != nil {
			return err
		}
		return w.progressed(ctx, row, p)
	})
	return w.answer(ctx), err
}

// advanceClock moves the sandbox clock to the start of a later day, then
// catches up with everything that fell on the way, in date order, before
// it answers.
func (w *contractWorkflow) advanceClock(ctx workflow.Context, req AdvanceClockRequest) (Answer, error) {
	err := w.change(ctx, AdvanceClock, func(ctx workflow.Context) error {
		target, err := w.clockTarget(ctx, req)
		if err != nil {
			return err
		}
		offset := w.clock.offsetTo(ctx, target)
		if err := entity.Persist(ctx, a.SetClock, activities.ContractClock{ContractRef: w.ref(), Offset: offset}); err != nil {
			return err
		}
		workflow.GetLogger(ctx).Info("contract clock advanced", "to", target)
		w.state.ClockOffset = offset
		w.revision++
		return w.catchUp(ctx)
	})
	return w.answer(ctx), err
}

func (w *contractWorkflow) ref() activities.ContractRef {
	return activities.ContractRef{ContractID: w.input.ContractID, SellerID: w.input.SellerID}
}

// transition is the activities' view of a row of the table, made today.
func (w *contractWorkflow) transition(ctx workflow.Context, row statemachine.Transition[contracts.Status]) activities.ContractTransition {
	return activities.ContractTransition{
		ContractID: w.input.ContractID, SellerID: w.input.SellerID, From: row.From, To: row.To, Event: row.Event, Today: w.clock.today(ctx),
	}
}

// move persists a change that is only a new status with its event.
func (w *contractWorkflow) move(ctx workflow.Context, t statemachine.Trigger) error {
	row := Transitions.Must(w.state.Status, t)
	p, err := entity.PersistResult(ctx, a.Transition, w.transition(ctx, row))
	if err != nil {
		return err
	}
	return w.progressed(ctx, row, p)
}

// start starts the term on a day.
func (w *contractWorkflow) start(ctx workflow.Context, on civil.Date) error {
	row := Transitions.Must(w.state.Status, Deliver)
	p, err := entity.PersistResult(ctx, a.Start, activities.ContractStart{ContractTransition: w.transition(ctx, row), On: on})
	if err != nil {
		return err
	}
	return w.progressed(ctx, row, p)
}

// progressed notes the contract's progress after a persisted change and
// the status its row reached, published when it changed.
func (w *contractWorkflow) progressed(ctx workflow.Context, row statemachine.Transition[contracts.Status], p activities.ContractProgress) error {
	w.state.Progress = p
	w.revision++
	if row.To == w.state.Status {
		return nil
	}
	workflow.GetLogger(ctx).Info("contract "+row.Trigger.Name, "from", row.From, "to", row.To)
	w.state.Status = row.To
	return entity.PublishStatus(ctx, string(row.To))
}

// open opens the contract and starts or cancels it when its order shipped
// or was cancelled before its workflow ran (the backfill's contracts).
func (w *contractWorkflow) open(ctx workflow.Context) error {
	opened, err := entity.PersistResult(ctx, a.Open, w.ref())
	if err != nil {
		return err
	}
	w.state.Progress = opened.Progress
	if status := opened.Progress.Status; status != w.state.Status {
		w.state.Status = status
		if err := entity.PublishStatus(ctx, string(status)); err != nil {
			return err
		}
	}
	switch {
	case w.state.Status != contracts.AwaitingDelivery:
		return nil
	case opened.OrderCanceled:
		return w.move(ctx, Cancel)
	case opened.ShippedAt != nil:
		return w.start(ctx, w.clock.dayOf(*opened.ShippedAt))
	}
	return nil
}

// receive acts on the order's signals: a shipment starts the term of a
// contract awaiting it, a cancellation cancels one; a signal the status no
// longer allows changes nothing.
func (w *contractWorkflow) receive(ctx workflow.Context) error {
	var shipped ShippedSignal
	for w.shipped.ReceiveAsync(&shipped) {
		if w.state.Status != contracts.AwaitingDelivery {
			workflow.GetLogger(ctx).Info("contract ignores a shipment", "status", w.state.Status)
			continue
		}
		if err := w.start(ctx, w.clock.dayOf(shipped.ShippedAt)); err != nil {
			return err
		}
	}
	for w.canceled.ReceiveAsync(nil) {
		if w.state.Status != contracts.AwaitingDelivery {
			workflow.GetLogger(ctx).Info("contract ignores its order's cancellation", "status", w.state.Status)
			continue
		}
		if err := w.move(ctx, Cancel); err != nil {
			return err
		}
	}
	return nil
}

// signalsPending reports whether a signal waits to be received.
func (w *contractWorkflow) signalsPending() bool {
	return w.shipped.Len() > 0 || w.canceled.Len() > 0
}

// catchUp makes, in date order, every change of the clock whose day has
// come.
func (w *contractWorkflow) catchUp(ctx workflow.Context) error {
	for !Final(w.state.Status) {
		next, ok := nextStep(w.state)
		today := w.clock.today(ctx)
		if !ok || next.on.After(today) {
			return nil
		}
		if err := w.take(ctx, next, today); err != nil {
			return err
		}
		w.steps++
	}
	return nil
}

// take makes one change of the clock, recorded on the day it was due.
func (w *contractWorkflow) take(ctx workflow.Context, next step, today civil.Date) error {
	row := Transitions.Must(w.state.Status, next.trigger)
	in := w.transition(ctx, row)
	if recordsStepDays(ctx) {
		in.Today = next.on
	}
	var (
		p   activities.ContractProgress
		err error
	)
	switch next.trigger {
	case FallDue:
		p, err = entity.PersistResult(ctx, a.FallDue, activities.ContractFallingDue{ContractTransition: in, Since: next.on, Through: fallingThrough(w.state, today)})
	case GiveNotice:
		p, err = entity.PersistResult(ctx, a.GiveNotice, in)
	case EndWithoutChoice:
		p, err = entity.PersistResult(ctx, a.Extend, activities.ContractExtension{ContractTransition: in, Mode: contracts.ExtendMonthly, WithoutChoice: true})
	case Grow:
		p, err = entity.PersistResult(ctx, a.Grow, activities.ContractGrowth{ContractTransition: in, After: *w.state.Progress.ScheduleEnd})
	case CompleteReturn:
		p, err = entity.PersistResult(ctx, a.Transition, in)
	case Remind, Default:
		p, err = w.remind(ctx, in)
	default:
		return fmt.Errorf("contracts: no change for %q", next.trigger.Name)
	}
	if err != nil {
		return err
	}
	return w.progressed(ctx, row, p)
}

// stepDaysChange names the change that records a change of the clock on
// the day it was due rather than on the clock's today, which is later when
// the contract catches up (a worker back after a pause, the sandbox's clock
// moved months ahead): a month-by-month continuation is taken the day
// after the end date, a return completes then, whenever the clock reads
// it. Runs recorded before it replay with the clock's today.
const stepDaysChange = "step-days"

func recordsStepDays(ctx workflow.Context) bool {
	return workflow.GetVersion(ctx, stepDaysChange, workflow.DefaultVersion, 1) >= 1
}

func (w *contractWorkflow) run(ctx workflow.Context) (Result, error) {
	if w.input.State == nil {
		if err := w.guard.Do(ctx, always, w.open); err != nil {
			return Result{}, err
		}
	}
	for {
		err := w.guard.Do(ctx, always, func(ctx workflow.Context) error {
			if err := w.receive(ctx); err != nil {
				return err
			}
			return w.catchUp(ctx)
		})
		if err != nil {
			return Result{}, err
		}
		if Final(w.state.Status) {
			return Result{Status: w.state.Status}, entity.HandlersFinished(ctx)
		}
		if w.steps >= stepsPerRun || entity.ContinueAsNewSuggested(ctx) {
			if err := entity.HandlersFinished(ctx); err != nil {
				return Result{}, err
			}
			if !w.signalsPending() {
				state := w.state
				return Result{}, workflow.NewContinueAsNewError(ctx, Contract, Input{
					ContractID: w.input.ContractID, SellerID: w.input.SellerID, Settings: w.input.Settings, State: &state,
				})
			}
			continue
		}
		if err := w.sleep(ctx); err != nil {
			return Result{}, err
		}
	}
}

// always lets the guard run a change of the workflow's own.
func always() error { return nil }

// sleep waits until the next change of the clock is due, or the state
// changes, or a signal comes, or a fresh run is suggested. The timer of a
// wait that ends early is cancelled, so it never fires into a later wait.
func (w *contractWorkflow) sleep(ctx workflow.Context) error {
	revision := w.revision
	woken := func() bool {
		return w.revision != revision || w.signalsPending() || entity.ContinueAsNewSuggested(ctx)
	}
	next, ok := nextStep(w.state)
	if !ok {
		return workflow.Await(ctx, woken)
	}
	wait := w.clock.wakeAt(next.on).Sub(workflow.Now(ctx))
	if wait <= 0 {
		return nil
	}
	timerCtx, cancelTimer := workflow.WithCancel(ctx)
	defer cancelTimer()
	_, err := workflow.AwaitWithTimeout(timerCtx, wait, woken)
	return err
}
