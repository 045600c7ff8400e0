package activities_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// pendingDelivery registers an endpoint and an event and creates their
// delivery as Dispatch would, without starting a workflow: the test plays
// the workflow's part by calling the activities itself.
func pendingDelivery(t *testing.T, store *db.Store, url string) activities.AttemptInput {
	t.Helper()
	cfg := testenv.Config(t)
	seller, err := auth.CreateSeller(t.Context(), store, "Activity Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	endpoints, err := webhook.NewEndpoints(store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := endpoints.Create(t.Context(), seller.Seller.ID, webhook.EndpointInput{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	var eventID uuid.UUID
	err = store.InTx(t.Context(), func(q *dbgen.Queries) error {
		eventID, err = webhook.Record(t.Context(), q, webhook.NewEvent{SellerID: seller.Seller.ID, Type: webhook.OrderCreated,
			ObjectID: uuid.New(), Payload: json.RawMessage(`{"status":"created"}`)})
		if err != nil {
			return err
		}
		return q.CreateDelivery(t.Context(), dbgen.CreateDeliveryParams{EventID: eventID, EndpointID: ep.Endpoint.ID, SellerID: seller.Seller.ID})
	})
	if err != nil {
		t.Fatal(err)
	}
	return activities.AttemptInput{EventID: eventID, EndpointID: ep.Endpoint.ID, Run: 1, Attempt: 1, Timeout: time.Second}
}

func deliveryActivities(t *testing.T, store *db.Store) *activities.Deliveries {
	t.Helper()
	acts, err := activities.New(activities.Deps{Config: testenv.Config(t), Store: store, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return acts.Deliveries
}

// A send activity that Temporal runs again (its first execution's result
// was lost) finds its attempt claimed and does not send a second request.
func TestSendAttemptNeverSendsTwice(t *testing.T) {
	store := testenv.Database(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	in := pendingDelivery(t, store, rcv.URL)
	acts := deliveryActivities(t, store)

	first, err := acts.SendAttempt(t.Context(), in)
	if err != nil || first.Verdict != activities.VerdictDelivered {
		t.Fatalf("first execution: %+v %v", first, err)
	}
	again, err := acts.SendAttempt(t.Context(), in)
	if err != nil || again.Verdict != activities.VerdictFailed || again.ErrorClass != webhook.ClassInterrupted {
		t.Errorf("a re-execution before the outcome was recorded: %+v %v", again, err)
	}
	if err := acts.RecordAttempt(t.Context(), activities.RecordInput{Attempt: in, Outcome: first}); err != nil {
		t.Fatal(err)
	}
	replay, err := acts.SendAttempt(t.Context(), in)
	if err != nil || replay.Verdict != activities.VerdictStopped {
		t.Errorf("after the delivery settled: %+v %v", replay, err)
	}
	if n := len(rcv.Requests()); n != 1 {
		t.Errorf("%d requests for one attempt executed three times", n)
	}
	// Recording twice counts the attempt once.
	if err := acts.RecordAttempt(t.Context(), activities.RecordInput{Attempt: in, Outcome: first}); err != nil {
		t.Fatal(err)
	}
	dl, _ := store.GetDelivery(t.Context(), dbgen.GetDeliveryParams{EventID: in.EventID, EndpointID: in.EndpointID})
	if dl.Status != webhook.DeliveryDelivered || dl.Attempts != 1 {
		t.Errorf("delivery %+v", dl)
	}
}

// A send activity whose delivery row is not visible yet fails (Temporal
// retries it) instead of sending or giving up.
func TestSendAttemptWaitsForItsDelivery(t *testing.T) {
	store := testenv.Database(t)
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	in := pendingDelivery(t, store, rcv.URL)
	in.EndpointID = uuid.New()
	if _, err := deliveryActivities(t, store).SendAttempt(t.Context(), in); err == nil {
		t.Error("an attempt without its delivery row succeeded")
	}
	if len(rcv.Requests()) != 0 {
		t.Error("it sent a request")
	}
}
