package offer

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/refusal"
)

// fakes stand in for the offer activities and record what they were asked.
type fakes struct {
	created     []offers.Draft
	createErr   error
	transitions []activities.OfferTransition
	accepted    []activities.OfferAcceptance
	edits       []activities.OfferEdit
	startedOffs []activities.OfferStart
	startedOrds []activities.OrderStart
	decision    offers.Decision
	reviews     []activities.OfferReview
	orderID     uuid.UUID
}

func newEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *fakes) {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	env := suite.NewTestWorkflowEnvironment()
	f := &fakes{orderID: uuid.New()}
	Register(env, a)
	env.OnActivity(a.Create, mockAny, mockAny).Return(func(_ context.Context, d offers.Draft) error {
		f.created = append(f.created, d)
		return f.createErr
	})
	env.OnActivity(a.Transition, mockAny, mockAny).Return(func(_ context.Context, in activities.OfferTransition) error {
		f.transitions = append(f.transitions, in)
		return nil
	})
	env.OnActivity(a.Accept, mockAny, mockAny).Return(func(_ context.Context, in activities.OfferAcceptance) (activities.OfferAccepted, error) {
		f.accepted = append(f.accepted, in)
		return activities.OfferAccepted{OrderID: f.orderID}, nil
	})
	env.OnActivity(a.Edit, mockAny, mockAny).Return(func(_ context.Context, in activities.OfferEdit) error {
		f.edits = append(f.edits, in)
		return nil
	})
	env.OnActivity(a.StartOffer, mockAny, mockAny).Return(func(_ context.Context, in activities.OfferStart) error {
		f.startedOffs = append(f.startedOffs, in)
		return nil
	})
	env.OnActivity(a.StartOrder, mockAny, mockAny).Return(func(_ context.Context, in activities.OrderStart) error {
		f.startedOrds = append(f.startedOrds, in)
		return nil
	})
	env.OnActivity(a.Review, mockAny, mockAny).Return(func(_ context.Context, in activities.OfferReview) (activities.OfferReviewed, error) {
		f.reviews = append(f.reviews, in)
		out := activities.OfferReviewed{Outcome: f.decision, ManualDeadline: 48 * time.Hour}
		if f.decision == offers.DecisionAccept {
			out.OrderID = f.orderID
		}
		return out, nil
	})
	return env, f
}

// outcome is what an update returned, or why it was rejected.
type outcome struct {
	rejected error
	err      error
	result   any
	done     bool
}

// send schedules an update after delay and records its outcome.
func send(env *testsuite.TestWorkflowEnvironment, delay time.Duration, name string, args ...any) *outcome {
	o := &outcome{}
	env.RegisterDelayedCallback(func() {
		env.UpdateWorkflow(name, "", &testsuite.TestUpdateCallback{
			OnReject: func(err error) { o.rejected, o.done = err, true },
			OnAccept: func() {},
			OnComplete: func(result any, err error) {
				o.result, o.err, o.done = result, err, true
			},
		}, args...)
	}, delay)
	return o
}

func draft(expiresIn time.Duration) offers.Draft {
	return offers.Draft{ID: uuid.New(), SellerOfferReference: "ref-1", ExpiresAt: time.Now().Add(expiresIn)}
}

func input() Input {
	return Input{OfferID: uuid.New(), SellerID: uuid.New(), Review: offers.ReviewBySimulation, Revision: Revision}
}

func result(t *testing.T, env *testsuite.TestWorkflowEnvironment) Result {
	t.Helper()
	if !env.IsWorkflowCompleted() {
		t.Fatal("the workflow did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

func appError(t *testing.T, err error, wantType, wantMessage string) {
	t.Helper()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		t.Fatalf("want a %s refusal, got %v", wantType, err)
	}
	if app.Type() != wantType || app.Message() != wantMessage {
		t.Errorf("got %s %q, want %s %q", app.Type(), app.Message(), wantType, wantMessage)
	}
}

func TestLifecycleToAccepted(t *testing.T) {
	env, f := newEnv(t)
	in := input()
	d := draft(24 * time.Hour)
	create := send(env, 0, Create.Update, CreateRequest{Draft: d})
	review := send(env, time.Minute, SubmitForReview.Update)
	accept := send(env, 2*time.Minute, Accept.Update)
	env.ExecuteWorkflow(Offer, in)

	for name, o := range map[string]*outcome{"create": create, "review": review, "accept": accept} {
		if !o.done || o.rejected != nil || o.err != nil {
			t.Fatalf("%s: %+v", name, o)
		}
	}
	r := result(t, env)
	if r.Status != offers.Accepted || r.OrderID != f.orderID {
		t.Errorf("result %+v", r)
	}
	if len(f.created) != 1 || f.created[0].ID != d.ID {
		t.Errorf("created %+v", f.created)
	}
	if len(f.transitions) != 1 || f.transitions[0].From != offers.Created || f.transitions[0].To != offers.PendingReview {
		t.Errorf("transitions %+v", f.transitions)
	}
	if len(f.startedOrds) != 1 || f.startedOrds[0].OrderID != f.orderID || f.startedOrds[0].SellerID != in.SellerID {
		t.Errorf("the order workflow is started once: %+v", f.startedOrds)
	}
	if got := accept.result.(AcceptResult); got.OrderID != f.orderID {
		t.Errorf("accept returns the order: %+v", got)
	}
}

func TestRefusalsUseTheSpecTexts(t *testing.T) {
	env, f := newEnv(t)
	send(env, 0, Create.Update, CreateRequest{Draft: draft(time.Hour)})
	decline := send(env, time.Second, Decline.Update)
	accept := send(env, 2*time.Second, Accept.Update)
	send(env, 3*time.Second, Void.Update, VoidRequest{})
	env.ExecuteWorkflow(Offer, input())

	appError(t, decline.rejected, string(refusal.StatusNotAllowed), "offers with status=created cannot be declined")
	appError(t, accept.rejected, string(refusal.StatusNotAllowed), "offers with status=created cannot be accepted")
	if r := result(t, env); r.Status != offers.Voided {
		t.Errorf("result %+v", r)
	}
	if len(f.transitions) != 1 || f.transitions[0].To != offers.Voided {
		t.Errorf("refused updates recorded nothing: %+v", f.transitions)
	}
}

func TestVoidNamesTheSupersedingOffer(t *testing.T) {
	env, f := newEnv(t)
	by := uuid.New()
	send(env, 0, Create.Update, CreateRequest{Draft: draft(time.Hour)})
	send(env, time.Second, SubmitForReview.Update)
	void := send(env, 2*time.Second, Void.Update, VoidRequest{SupersededBy: &by})
	env.ExecuteWorkflow(Offer, input())
	if void.err != nil || void.rejected != nil {
		t.Fatalf("void from pending_review: %+v", void)
	}
	last := f.transitions[len(f.transitions)-1]
	if last.From != offers.PendingReview || last.To != offers.Voided || last.SupersededBy == nil || *last.SupersededBy != by {
		t.Errorf("transition %+v", last)
	}
	if r := result(t, env); r.Status != offers.Voided {
		t.Errorf("result %+v", r)
	}
}

func TestCreatedOfferExpires(t *testing.T) {
	env, f := newEnv(t)
	d := draft(72 * time.Hour)
	send(env, 0, Create.Update, CreateRequest{Draft: d})
	env.ExecuteWorkflow(Offer, input())
	if r := result(t, env); r.Status != offers.Expired {
		t.Fatalf("result %+v", r)
	}
	if len(f.transitions) != 1 || f.transitions[0].From != offers.Created || f.transitions[0].To != offers.Expired {
		t.Errorf("transitions %+v", f.transitions)
	}
	if now := env.Now(); now.Before(d.ExpiresAt) {
		t.Errorf("expired at %s, before expires_at %s", now, d.ExpiresAt)
	}
}

func TestOfferUnderReviewDoesNotExpire(t *testing.T) {
	env, f := newEnv(t)
	send(env, 0, Create.Update, CreateRequest{Draft: draft(time.Hour)})
	send(env, time.Minute, SubmitForReview.Update)
	decline := send(env, 30*24*time.Hour, Decline.Update)
	env.ExecuteWorkflow(Offer, input())
	if decline.err != nil || decline.rejected != nil {
		t.Fatalf("a month later the offer is still under review and can be declined: %+v", decline)
	}
	if r := result(t, env); r.Status != offers.Declined {
		t.Errorf("result %+v", r)
	}
	for _, tr := range f.transitions {
		if tr.To == offers.Expired {
			t.Error("an offer under review expired")
		}
	}
}

// timers records the durations of the timers a run started and how many
// it cancelled.
type timers struct {
	started   []time.Duration
	cancelled int
}

func watchTimers(env *testsuite.TestWorkflowEnvironment) *timers {
	tm := &timers{}
	env.SetOnTimerScheduledListener(func(_ string, d time.Duration) { tm.started = append(tm.started, d) })
	env.SetOnTimerCanceledListener(func(string) { tm.cancelled++ })
	return tm
}

// reviewedOfferTimers runs an offer of the given revision through
// creation, review a minute later and a decline, and returns its timers.
func reviewedOfferTimers(t *testing.T, revision int) *timers {
	t.Helper()
	env, _ := newEnv(t)
	tm := watchTimers(env)
	send(env, 0, Create.Update, CreateRequest{Draft: draft(time.Hour)})
	send(env, time.Minute, SubmitForReview.Update)
	send(env, 2*time.Minute, Decline.Update)
	in := input()
	in.Revision = revision
	env.ExecuteWorkflow(Offer, in)
	if r := result(t, env); r.Status != offers.Declined {
		t.Fatalf("result %+v", r)
	}
	return tm
}

func TestReviewCancelsTheExpiryTimer(t *testing.T) {
	tm := reviewedOfferTimers(t, Revision)
	if len(tm.started) != 1 || tm.started[0] < 58*time.Minute || tm.cancelled != 1 {
		t.Errorf("timers %+v, want the expiry only, cancelled by the review", tm)
	}
}

// Runs started before revision 1 replay the commands they recorded: the
// creation window's timer, and an expiry timer left to fire.
func TestRevisionZeroRunsKeepTheirTimers(t *testing.T) {
	tm := reviewedOfferTimers(t, 0)
	if len(tm.started) != 2 || tm.started[0] != createWindow || tm.cancelled != 0 {
		t.Errorf("timers %+v, want the creation window's and the expiry's, none cancelled", tm)
	}
}

func TestEdit(t *testing.T) {
	env, f := newEnv(t)
	in := input()
	replacement := draft(48 * time.Hour)
	send(env, 0, Create.Update, CreateRequest{Draft: draft(time.Hour)})
	edit := send(env, time.Second, Edit.Update, EditRequest{Draft: replacement})
	env.ExecuteWorkflow(Offer, in)
	if edit.err != nil || edit.rejected != nil {
		t.Fatalf("edit: %+v", edit)
	}
	if got := edit.result.(EditResult); got.OfferID != replacement.ID {
		t.Errorf("edit returns the superseding offer: %+v", got)
	}
	if len(f.edits) != 1 || f.edits[0].Offer.OfferID != in.OfferID || f.edits[0].Draft.ID != replacement.ID {
		t.Errorf("edits %+v", f.edits)
	}
	if len(f.startedOffs) != 1 || f.startedOffs[0].OfferID != replacement.ID || !f.startedOffs[0].ExpiresAt.Equal(replacement.ExpiresAt) {
		t.Errorf("the superseding offer's workflow is started: %+v", f.startedOffs)
	}
	if r := result(t, env); r.Status != offers.Voided {
		t.Errorf("result %+v", r)
	}
}

func TestEditAfterCheckoutIsRefused(t *testing.T) {
	env, f := newEnv(t)
	send(env, 0, Create.Update, CreateRequest{Draft: draft(time.Hour)})
	send(env, time.Second, SubmitForReview.Update)
	edit := send(env, 2*time.Second, Edit.Update, EditRequest{Draft: draft(time.Hour)})
	send(env, 3*time.Second, Decline.Update)
	env.ExecuteWorkflow(Offer, input())
	appError(t, edit.rejected, string(refusal.AlreadyCheckedOut), "offers with status=pending_review cannot be edited")
	if len(f.edits) != 0 || len(f.startedOffs) != 0 {
		t.Errorf("a refused edit changed something: %+v %+v", f.edits, f.startedOffs)
	}
}

func TestFailedCreationEndsTheWorkflow(t *testing.T) {
	env, f := newEnv(t)
	f.createErr = temporal.NewNonRetryableApplicationError("reference in use", "ReferenceInUse", nil)
	create := send(env, 0, Create.Update, CreateRequest{Draft: draft(time.Hour)})
	env.ExecuteWorkflow(Offer, input())
	var app *temporal.ApplicationError
	if !errors.As(create.err, &app) || app.Type() != "ReferenceInUse" {
		t.Fatalf("the create update fails with the activity's error: %+v", create)
	}
	if r := result(t, env); r.Status != "" {
		t.Errorf("no offer, no status: %+v", r)
	}
}

func TestResumesFromCarriedState(t *testing.T) {
	env, f := newEnv(t)
	in := input()
	in.State = &State{Status: offers.PendingReview}
	send(env, time.Second, Accept.Update)
	env.ExecuteWorkflow(Offer, in)
	if r := result(t, env); r.Status != offers.Accepted {
		t.Errorf("result %+v", r)
	}
	if len(f.created) != 0 || len(f.accepted) != 1 {
		t.Errorf("a resumed offer is not created again: %+v %+v", f.created, f.accepted)
	}
}

// The rules' decision and its effect are one activity (Review), which is
// given the table's rows for both verdicts; the workflow follows what it
// answers.
func TestProductionRiskReview(t *testing.T) {
	cases := []struct {
		name     string
		decision offers.Decision
		operator string
		want     offers.Status
	}{
		{"rules accept", offers.DecisionAccept, "", offers.Accepted},
		{"rules decline", offers.DecisionDecline, "", offers.Declined},
		{"operator accepts", offers.DecisionManual, Accept.Update, offers.Accepted},
		{"deadline passes", offers.DecisionManual, "", offers.Declined},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env, f := newEnv(t)
			f.decision = tc.decision
			in := input()
			in.Review = offers.ReviewByRules
			send(env, 0, Create.Update, CreateRequest{Draft: draft(time.Hour)})
			send(env, time.Minute, SubmitForReview.Update)
			if tc.operator != "" {
				send(env, 24*time.Hour, tc.operator)
			}
			start := env.Now()
			env.ExecuteWorkflow(Offer, in)
			if r := result(t, env); r.Status != tc.want {
				t.Fatalf("result %+v", r)
			}
			if tc.name == "deadline passes" && env.Now().Sub(start) < 48*time.Hour {
				t.Errorf("declined after %s, before the deadline", env.Now().Sub(start))
			}
			if len(f.reviews) != 1 {
				t.Fatalf("the rules ran %d times", len(f.reviews))
			}
			r := f.reviews[0]
			if r.Accept.Offer.To != offers.Accepted || r.Decline.To != offers.Declined || r.Accept.Offer.From != offers.PendingReview {
				t.Errorf("the review was not given the table's rows: %+v", r)
			}
			if tc.decision == offers.DecisionAccept && (len(f.accepted) != 0 || len(f.startedOrds) != 1 || f.startedOrds[0].OrderID != f.orderID) {
				t.Errorf("the rules' acceptance is the review's: accepted again %+v, orders started %+v", f.accepted, f.startedOrds)
			}
		})
	}
}

// mockAny matches any activity argument.
const mockAny = mock.Anything

func TestRefusalText(t *testing.T) {
	if got := Transitions.Refusal(offers.Voided, Void.Update).Message; got != "offers with status=voided cannot be voided" {
		t.Errorf("got %q", got)
	}
	if got := Transitions.Refusal(offers.Accepted, SubmitForReview.Update).Message; got != "offers with status=accepted cannot be submitted for review" {
		t.Errorf("got %q", got)
	}
}
