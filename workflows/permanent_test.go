package workflows_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/permanent"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

// The activity groups whose methods name the activities the tests expect
// to fail; the worker registers the real ones.
var (
	seeding         *activities.SandboxFixtures
	offerActivities *activities.Offers
)

// permanentFailure finds the permanent failure in err and checks its
// reason.
func permanentFailure(t *testing.T, err error, activity, reason string) {
	t.Helper()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != permanent.ErrorType || !app.NonRetryable() {
		t.Fatalf("want a permanent failure, got %v", err)
	}
	if want := activity + " failed permanently: " + reason; !strings.HasPrefix(app.Message(), want) {
		t.Errorf("message %q, want it to start with %q", app.Message(), want)
	}
}

// workingStack is a database and a namespace with Tenure's workers, and a
// context bounding what the test waits for.
func workingStack(t *testing.T) (*db.Store, client.Client, context.Context) {
	t.Helper()
	store := testenv.Database(t)
	tc := testenv.Temporal(t)
	testenv.Worker(t, testenv.Config(t), store, tc)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return store, tc, ctx
}

// The incident of issue 12: seeding a seller the worker's database does
// not hold (sellers create against another database) broke a foreign key
// and was retried for 20 minutes. Now the first attempt ends the workflow
// with the reason.
func TestSeedingASellerTheDatabaseLacksFailsAtTheFirstAttempt(t *testing.T) {
	_, tc, ctx := workingStack(t)
	seller := uuid.New()
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: sandbox.WorkflowID(seller), TaskQueue: sandbox.TaskQueue},
		sandbox.SeedSeller, sandbox.SeedInput{SellerID: seller})
	if err != nil {
		t.Fatal(err)
	}
	err = run.Get(ctx, nil)
	permanentFailure(t, err, activities.Name(seeding.SeedShippingMethods), "a record it refers to does not exist")

	history := tc.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var started []int32
	for history.HasNext() {
		event, err := history.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := event.GetActivityTaskStartedEventAttributes(); a != nil {
			started = append(started, a.GetAttempt())
		}
	}
	if len(started) != 1 || started[0] != 1 {
		t.Errorf("activity attempts %v, want one first attempt", started)
	}
}

// The entity workflows persist through local activities, which go through
// the same interceptor: a creation the database refuses fails its update
// at once instead of holding the offer's lock through endless retries.
func TestAnOfferTheDatabaseRefusesFailsItsCreationAtOnce(t *testing.T) {
	store, tc, ctx := workingStack(t)
	draft := offers.Draft{ID: uuid.New(), SellerID: uuid.New(), SellerOfferReference: "no-seller", SalesChannel: "ecommerce", ExpiresAt: time.Now().Add(time.Hour)}
	start := tc.NewWithStartWorkflowOperation(offer.StartOptions(draft.ID, draft.SellerID, draft.SellerOfferReference),
		offer.Offer, offer.Input{OfferID: draft.ID, SellerID: draft.SellerID, Review: offers.ReviewBySimulation, Revision: offer.Revision})
	h, err := tc.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: start,
		UpdateOptions: client.UpdateWorkflowOptions{
			UpdateName: offer.Create.Update, Args: []any{offer.CreateRequest{Draft: draft}}, WaitForStage: client.WorkflowUpdateStageCompleted,
		},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	permanentFailure(t, err, activities.Name(offerActivities.Create), "a record it refers to does not exist")

	// The workflow stays consistent: no offer row, and the run ended.
	if _, err := store.GetOfferForOperator(ctx, draft.ID); !db.IsNotFound(err) {
		t.Errorf("the refused offer was stored (%v)", err)
	}
	run := tc.GetWorkflow(ctx, offer.WorkflowID(draft.ID), "")
	if err := run.Get(ctx, nil); err != nil {
		t.Errorf("the offer workflow did not end cleanly: %v", err)
	}
}
