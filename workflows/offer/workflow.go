package offer

import (
	"slices"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/workflows/entity"
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
		name      string
		handler   any
		validator any
	}{
		{CreateUpdate, w.create, func(CreateRequest) error { return w.validateCreate() }},
		{SubmitForReviewUpdate, w.submitForReview, func() error { return w.validate(SubmitForReviewUpdate) }},
		{AcceptUpdate, w.accept, func() error { return w.validate(AcceptUpdate) }},
		{DeclineUpdate, w.decline, func() error { return w.validate(DeclineUpdate) }},
		{VoidUpdate, w.void, func(VoidRequest) error { return w.validate(VoidUpdate) }},
		{EditUpdate, w.edit, func(EditRequest) error { return w.validate(EditUpdate) }},
	}
	for _, h := range handlers {
		err := workflow.SetUpdateHandlerWithOptions(ctx, h.name, h.handler, workflow.UpdateHandlerOptions{Validator: h.validator})
		if err != nil {
			return err
		}
	}
	return nil
}

// allowedFrom is the spec's offer transition table, with DESIGN.md's
// decisions for voiding and editing.
var allowedFrom = map[string][]offers.Status{
	SubmitForReviewUpdate: {offers.Created},
	AcceptUpdate:          {offers.PendingReview},
	DeclineUpdate:         {offers.PendingReview},
	VoidUpdate:            {offers.Created, offers.PendingReview},
	EditUpdate:            {offers.Created},
}

func (w *offerWorkflow) validateCreate() error {
	if w.created || w.createFailed {
		return temporal.NewApplicationError("the offer exists already", ErrStatus)
	}
	return nil
}

// validate refuses an update the current status does not allow.
func (w *offerWorkflow) validate(update string) error {
	if !w.created {
		return temporal.NewApplicationError("the offer does not exist", ErrStatus)
	}
	if slices.Contains(allowedFrom[update], w.state.Status) {
		return nil
	}
	if update == EditUpdate {
		return temporal.NewApplicationError(Refusal(w.state.Status, update), ErrAlreadyCheckedOut)
	}
	return temporal.NewApplicationError(Refusal(w.state.Status, update), ErrStatus)
}

// change runs an update's effect under the guard.
func (w *offerWorkflow) change(ctx workflow.Context, update string, effect func(ctx workflow.Context) error) error {
	return w.guard.Do(ctx, func() error { return w.validate(update) }, effect)
}

// a names the offer activities; the worker registers the real ones.
var a *activities.Offers

func (w *offerWorkflow) ref() activities.OfferRef {
	return activities.OfferRef{OfferID: w.input.OfferID, SellerID: w.input.SellerID}
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
		w.state = State{Status: offers.Created, ExpiresAt: req.Draft.ExpiresAt}
		return nil
	})
}

func (w *offerWorkflow) submitForReview(ctx workflow.Context) error {
	return w.change(ctx, SubmitForReviewUpdate, func(ctx workflow.Context) error {
		return w.transition(ctx, offers.PendingReview, nil)
	})
}

func (w *offerWorkflow) accept(ctx workflow.Context) (AcceptResult, error) {
	var result AcceptResult
	err := w.change(ctx, AcceptUpdate, func(ctx workflow.Context) (err error) {
		result, err = w.acceptNow(ctx)
		return err
	})
	return result, err
}

// acceptNow accepts the offer, which creates its order in the same
// transaction, then starts the order's workflow.
func (w *offerWorkflow) acceptNow(ctx workflow.Context) (AcceptResult, error) {
	accepted, err := entity.PersistResult(ctx, a.Accept, w.ref())
	result := AcceptResult{OrderID: accepted.OrderID}
	if err != nil {
		return result, err
	}
	w.state.Status = offers.Accepted
	w.orderID = result.OrderID
	if err := entity.PublishStatus(ctx, string(w.state.Status)); err != nil {
		return result, err
	}
	start := activities.OrderStart{OrderID: result.OrderID, SellerID: w.input.SellerID}
	return result, entity.Persist(ctx, a.StartOrder, start)
}

func (w *offerWorkflow) decline(ctx workflow.Context) error {
	return w.change(ctx, DeclineUpdate, func(ctx workflow.Context) error {
		return w.transition(ctx, offers.Declined, nil)
	})
}

func (w *offerWorkflow) void(ctx workflow.Context, req VoidRequest) error {
	return w.change(ctx, VoidUpdate, func(ctx workflow.Context) error {
		return w.transition(ctx, offers.Voided, req.SupersededBy)
	})
}

// edit voids the offer and stores the superseding one in one transaction,
// then starts the new offer's workflow.
func (w *offerWorkflow) edit(ctx workflow.Context, req EditRequest) (EditResult, error) {
	err := w.change(ctx, EditUpdate, func(ctx workflow.Context) error {
		in := activities.OfferEdit{OfferID: w.input.OfferID, SellerID: w.input.SellerID, Draft: req.Draft}
		if err := entity.Persist(ctx, a.Edit, in); err != nil {
			return err
		}
		w.state.Status = offers.Voided
		if err := entity.PublishStatus(ctx, string(w.state.Status)); err != nil {
			return err
		}
		start := activities.OfferStart{OfferID: req.Draft.ID, SellerID: w.input.SellerID, Review: w.input.Review, ExpiresAt: req.Draft.ExpiresAt}
		return entity.Persist(ctx, a.StartOffer, start)
	})
	return EditResult{OfferID: req.Draft.ID}, err
}

func (w *offerWorkflow) transition(ctx workflow.Context, to offers.Status, supersededBy *uuid.UUID) error {
	in := activities.OfferTransition{
		OfferID:      w.input.OfferID,
		SellerID:     w.input.SellerID,
		From:         w.state.Status,
		To:           to,
		SupersededBy: supersededBy,
	}
	if err := entity.Persist(ctx, a.Transition, in); err != nil {
		return err
	}
	w.state.Status = to
	return entity.PublishStatus(ctx, string(to))
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
	for !w.state.Status.Final() {
		if entity.ContinueAsNewSuggested(ctx) {
			return Result{}, entity.ContinueAsNew(ctx, Offer, func() any {
				state := w.state
				return Input{OfferID: w.input.OfferID, SellerID: w.input.SellerID, Review: w.input.Review, State: &state, Revision: w.input.Revision}
			})
		}
		var err error
		switch {
		case w.state.Status == offers.Created:
			err = w.untilDeadline(ctx, w.state.ExpiresAt, func(ctx workflow.Context) error {
				return w.transition(ctx, offers.Expired, nil)
			})
		case w.input.Review == offers.ReviewByRules && !w.state.Reviewed:
			err = w.review(ctx)
		case w.input.Review == offers.ReviewByRules:
			// An operator did not decide in time.
			err = w.untilDeadline(ctx, w.state.DecideBy, func(ctx workflow.Context) error {
				return w.transition(ctx, offers.Declined, nil)
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
	r, err := entity.PersistResult(ctx, a.ReviewRisk, w.ref())
	if err != nil {
		return err
	}
	err = w.guard.Do(ctx, func() error { return w.validate(AcceptUpdate) }, func(ctx workflow.Context) error {
		w.state.Reviewed = true
		switch r.Decision {
		case offers.DecisionAccept:
			_, err := w.acceptNow(ctx)
			return err
		case offers.DecisionDecline:
			return w.transition(ctx, offers.Declined, nil)
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
