package offer

import (
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// createWindow bounds how long a workflow started without its creation
// update waits for it. Update-With-Start delivers the update with the
// start, so this only ends runs whose update was lost on the way.
const createWindow = time.Minute

// Offer is the workflow of one offer.
func Offer(ctx workflow.Context, in Input) (Result, error) {
	w := &offerWorkflow{input: in}
	if err := w.setup(ctx); err != nil {
		return Result{}, err
	}
	return w.run(ctx)
}

type offerWorkflow struct {
	input        Input
	state        State
	created      bool
	createFailed bool
	// creating is set once the creation update's handler began.
	creating bool
	orderID  uuid.UUID
	guard    *entity.Guard
}

func (w *offerWorkflow) setup(ctx workflow.Context) error {
	w.guard = entity.NewGuard(ctx)
	if w.input.State != nil {
		w.state = *w.input.State
		w.created = true
	}
	handlers := []struct {
		trigger   statemachine.Trigger
		handler   any
		validator any
	}{
		{Create, w.create, func(CreateRequest) error { return w.validateCreate() }},
		{CustomerChange, w.customerChange, func(CustomerChangeRequest) error { return w.validate(CustomerChange) }},
		{SubmitForReview, w.submitForReview, func(SubmitRequest) error { return w.validate(SubmitForReview) }},
		{Accept, w.accept, func() error { return w.validate(Accept) }},
		{Decline, w.decline, func() error { return w.validate(Decline) }},
		{Void, w.void, func(VoidRequest) error { return w.validate(Void) }},
		{Edit, w.edit, func(EditRequest) error { return w.validate(Edit) }},
	}
	for _, h := range handlers {
		err := workflow.SetUpdateHandlerWithOptions(ctx, h.trigger.Update, h.handler, workflow.UpdateHandlerOptions{Validator: h.validator})
		if err != nil {
			return err
		}
	}
	return nil
}

// validateCreate refuses a second creation, and one after a failed one.
func (w *offerWorkflow) validateCreate() error {
	if w.createFailed {
		return entity.Refuse(CreationFailed())
	}
	return w.validate(Create)
}

// CreationFailed refuses a creation after the offer's workflow failed to
// create it, or ended without creating it: an offer id is created once, so
// only a request with another Idempotency-Key can create the offer.
func CreationFailed() *refusal.Error {
	return refusal.New(refusal.OfferNotCreated, "the offer could not be created; send the request with a new Idempotency-Key to create it")
}

// validate refuses an update the current status does not allow, as the
// table says.
func (w *offerWorkflow) validate(t statemachine.Trigger) error {
	if !w.created && t != Create {
		return entity.Refuse(refusal.New(refusal.StatusNotAllowed, "the offer does not exist"))
	}
	if Transitions.Allows(w.state.Status, t.Update) {
		return nil
	}
	return entity.Refuse(Transitions.Refusal(w.state.Status, t.Update))
}

// change runs an update's effect under the guard.
func (w *offerWorkflow) change(ctx workflow.Context, t statemachine.Trigger, effect func(ctx workflow.Context) error) error {
	return w.guard.Do(ctx, func() error { return w.validate(t) }, effect)
}

// a names the offer activities; the worker registers the real ones.
var a *activities.Offers

func (w *offerWorkflow) ref() activities.OfferRef {
	return activities.OfferRef{OfferID: w.input.OfferID, SellerID: w.input.SellerID}
}

// transition is the activities' view of the table's row for a trigger
// from the current status.
func (w *offerWorkflow) transition(t statemachine.Trigger, supersededBy *uuid.UUID) activities.OfferTransition {
	row := Transitions.Must(w.state.Status, t)
	return activities.OfferTransition{
		OfferID: w.input.OfferID, SellerID: w.input.SellerID, From: row.From, To: row.To, Event: row.Event, SupersededBy: supersededBy,
	}
}

// moved notes the status a persisted transition reached and publishes it.
func (w *offerWorkflow) moved(ctx workflow.Context, t statemachine.Trigger, in activities.OfferTransition) error {
	workflow.GetLogger(ctx).Info("offer "+t.Name, "from", in.From, "to", in.To)
	w.state.Status = in.To
	return entity.PublishStatus(ctx, string(in.To))
}

func (w *offerWorkflow) create(ctx workflow.Context, req CreateRequest) error {
	w.creating = true
	return w.guard.Do(ctx, w.validateCreate, func(ctx workflow.Context) error {
		if err := entity.Persist(ctx, a.Create, req.Draft); err != nil {
			w.createFailed = true
			return err
		}
		// The start already set the status search attribute to created.
		w.created = true
		w.state = State{Status: Transitions.Must(w.state.Status, Create).To, ExpiresAt: req.Draft.ExpiresAt}
		return nil
	})
}

// customerChange stores a change of the customer's; the status stays.
func (w *offerWorkflow) customerChange(ctx workflow.Context, req CustomerChangeRequest) error {
	return w.change(ctx, CustomerChange, func(ctx workflow.Context) error {
		return entity.Persist(ctx, a.ChangeCheckout, activities.OfferCustomerChange{Offer: w.ref(), Change: req.Change})
	})
}

// submitForReview moves the offer to review; a customer's acceptance
// stores what they agreed to and redeems the discount in the same
// transaction.
func (w *offerWorkflow) submitForReview(ctx workflow.Context, req SubmitRequest) error {
	return w.change(ctx, SubmitForReview, func(ctx workflow.Context) error {
		if req.Checkout == nil {
			return w.move(ctx, SubmitForReview, nil)
		}
		in := w.transition(SubmitForReview, nil)
		err := entity.Persist(ctx, a.Submit, activities.OfferSubmission{Offer: in, CustomerAcceptance: *req.Checkout})
		if err != nil {
			return err
		}
		return w.moved(ctx, SubmitForReview, in)
	})
}

func (w *offerWorkflow) accept(ctx workflow.Context) (AcceptResult, error) {
	var result AcceptResult
	err := w.change(ctx, Accept, func(ctx workflow.Context) (err error) {
		result, err = w.acceptNow(ctx, Accept)
		return err
	})
	return result, err
}

// acceptNow accepts the offer (by the update or the risk rules), which
// creates its order in the same transaction, then starts the order's
// workflow.
func (w *offerWorkflow) acceptNow(ctx workflow.Context, t statemachine.Trigger) (AcceptResult, error) {
	in := w.transition(t, nil)
	opening := order.Opening()
	accepted, err := entity.PersistResult(ctx, a.Accept, activities.OfferAcceptance{Offer: in, OrderStatus: opening.To, OrderEvent: opening.Event})
	result := AcceptResult{OrderID: accepted.OrderID}
	if err != nil {
		return result, err
	}
	w.orderID = result.OrderID
	if err := w.moved(ctx, t, in); err != nil {
		return result, err
	}
	start := activities.OrderStart{OrderID: result.OrderID, SellerID: w.input.SellerID}
	return result, entity.Persist(ctx, a.StartOrder, start)
}

func (w *offerWorkflow) decline(ctx workflow.Context) error {
	return w.change(ctx, Decline, func(ctx workflow.Context) error {
		return w.move(ctx, Decline, nil)
	})
}

func (w *offerWorkflow) void(ctx workflow.Context, req VoidRequest) error {
	return w.change(ctx, Void, func(ctx workflow.Context) error {
		return w.move(ctx, Void, req.SupersededBy)
	})
}

// edit voids the offer and stores the superseding one in one transaction,
// then starts the new offer's workflow.
func (w *offerWorkflow) edit(ctx workflow.Context, req EditRequest) (EditResult, error) {
	err := w.change(ctx, Edit, func(ctx workflow.Context) error {
		in := w.transition(Edit, &req.Draft.ID)
		if err := entity.Persist(ctx, a.Edit, activities.OfferEdit{Offer: in, Draft: req.Draft}); err != nil {
			return err
		}
		if err := w.moved(ctx, Edit, in); err != nil {
			return err
		}
		start := activities.OfferStart{OfferID: req.Draft.ID, SellerID: w.input.SellerID, Review: w.input.Review, ExpiresAt: req.Draft.ExpiresAt}
		return entity.Persist(ctx, a.StartOffer, start)
	})
	return EditResult{OfferID: req.Draft.ID}, err
}

// move persists the table's transition for a trigger with its event.
func (w *offerWorkflow) move(ctx workflow.Context, t statemachine.Trigger, supersededBy *uuid.UUID) error {
	in := w.transition(t, supersededBy)
	if err := entity.Persist(ctx, a.Transition, in); err != nil {
		return err
	}
	return w.moved(ctx, t, in)
}

func (w *offerWorkflow) run(ctx workflow.Context) (Result, error) {
	if !w.created {
		if err := w.awaitCreation(ctx); err != nil {
			return Result{}, err
		}
		if !w.created {
			return Result{}, entity.HandlersFinished(ctx)
		}
	}
	for !Final(w.state.Status) {
		if entity.ContinueAsNewSuggested(ctx) {
			return Result{}, entity.ContinueAsNew(ctx, Offer, func() any {
				// A fresh run replays nothing: it runs the current code.
				state := w.state
				return Input{OfferID: w.input.OfferID, SellerID: w.input.SellerID, Review: w.input.Review, State: &state, Revision: Revision}
			})
		}
		var err error
		switch {
		case w.state.Status == offers.Created:
			err = w.untilDeadline(ctx, w.state.ExpiresAt, func(ctx workflow.Context) error {
				return w.move(ctx, Expiry, nil)
			})
		case w.input.Review == offers.ReviewByRules && !w.state.Reviewed:
			err = w.review(ctx)
		case w.input.Review == offers.ReviewByRules:
			// An operator did not decide in time.
			err = w.untilDeadline(ctx, w.state.DecideBy, func(ctx workflow.Context) error {
				return w.move(ctx, ReviewDeadline, nil)
			})
		default:
			// The sandbox waits for a scenario simulation.
			err = w.untilDeadline(ctx, time.Time{}, nil)
		}
		if err != nil {
			return Result{}, err
		}
	}
	return Result{Status: w.state.Status, OrderID: w.orderID}, entity.HandlersFinished(ctx)
}

// awaitCreation waits until the creation update succeeded or failed.
// A creation that came with the start has begun by now: an update waiting
// for its handler runs as soon as setup registers it. Only a run without
// one needs the window, whose timer would otherwise stay in every offer's
// history and fire a minute later (a met condition does not cancel it).
func (w *offerWorkflow) awaitCreation(ctx workflow.Context) error {
	done := func() bool { return w.created || w.createFailed }
	if w.creating && w.input.Revision >= 1 {
		return workflow.Await(ctx, done)
	}
	_, err := workflow.AwaitWithTimeout(ctx, createWindow, done)
	return err
}

// untilDeadline waits until the status changes or continue-as-new is
// suggested. When the deadline (if set) passes first with the status
// unchanged, it runs lapse under the guard.
func (w *offerWorkflow) untilDeadline(ctx workflow.Context, deadline time.Time, lapse func(workflow.Context) error) error {
	status := w.state.Status
	left := func() bool { return w.state.Status != status || entity.ContinueAsNewSuggested(ctx) }
	if deadline.IsZero() {
		return workflow.Await(ctx, left)
	}
	if remaining := deadline.Sub(workflow.Now(ctx)); remaining > 0 {
		timerCtx, cancelTimer := ctx, func() {}
		if w.input.Revision >= 1 {
			// A status that changes first cancels the timer, which
			// would otherwise fire later into a run no longer waiting.
			timerCtx, cancelTimer = workflow.WithCancel(ctx)
		}
		changed, err := workflow.AwaitWithTimeout(timerCtx, remaining, left)
		cancelTimer()
		if err != nil || changed {
			return err
		}
	}
	stillThere := func() error {
		if w.state.Status != status {
			return errRaceLost
		}
		return nil
	}
	err := w.guard.Do(ctx, stillThere, lapse)
	if err == errRaceLost {
		return nil // an update won the race against the deadline
	}
	return err
}

// errRaceLost says a deadline found the status already changed.
var errRaceLost = temporal.NewApplicationError("the status changed before the deadline", "RaceLost")

// review applies the production risk rules once; an operator's decision
// that arrived meanwhile wins.
func (w *offerWorkflow) review(ctx workflow.Context) error {
	if w.input.Revision >= 2 {
		return w.reviewInOneStep(ctx)
	}
	r, err := entity.PersistResult(ctx, a.ReviewRisk, w.ref())
	if err != nil {
		return err
	}
	err = w.guard.Do(ctx, func() error { return w.validate(Accept) }, func(ctx workflow.Context) error {
		w.state.Reviewed = true
		switch r.Decision {
		case offers.DecisionAccept:
			_, err := w.acceptNow(ctx, RulesAccept)
			return err
		case offers.DecisionDecline:
			return w.move(ctx, RulesDecline, nil)
		default:
			w.state.DecideBy = workflow.Now(ctx).Add(r.ManualDeadline)
			return nil
		}
	})
	if w.state.Status != offers.PendingReview {
		return nil // decided, by the rules or by someone faster
	}
	return err
}

// reviewInOneStep has the risk rules decide and acts on their decision in
// one transaction (a.Review), under the guard, so an operator's decision
// either comes first (and the rules do not run) or waits for it.
func (w *offerWorkflow) reviewInOneStep(ctx workflow.Context) error {
	err := w.guard.Do(ctx, func() error { return w.validate(Accept) }, func(ctx workflow.Context) error {
		opening := order.Opening()
		in := activities.OfferReview{
			Accept:  activities.OfferAcceptance{Offer: w.transition(RulesAccept, nil), OrderStatus: opening.To, OrderEvent: opening.Event},
			Decline: w.transition(RulesDecline, nil),
		}
		r, err := entity.PersistResult(ctx, a.Review, in)
		if err != nil {
			return err
		}
		w.state.Reviewed = true
		switch r.Outcome {
		case offers.DecisionAccept:
			w.orderID = r.OrderID
			if err := w.moved(ctx, RulesAccept, in.Accept.Offer); err != nil {
				return err
			}
			return entity.Persist(ctx, a.StartOrder, activities.OrderStart{OrderID: r.OrderID, SellerID: w.input.SellerID})
		case offers.DecisionDecline:
			return w.moved(ctx, RulesDecline, in.Decline)
		default:
			w.state.DecideBy = workflow.Now(ctx).Add(r.ManualDeadline)
			return nil
		}
	})
	if w.state.Status != offers.PendingReview {
		return nil // decided, by the rules or by someone faster
	}
	return err
}
