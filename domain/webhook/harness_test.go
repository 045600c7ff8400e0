package webhook_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/delivery"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is a seller over a real database, a Temporal namespace and a
// running worker (with its relay), configured with a compressed schedule.
type stack struct {
	cfg        *config.Config
	store      *db.Store
	temporal   client.Client
	endpoints  *webhook.Endpoints
	dispatcher *webhook.Dispatcher
	seller     uuid.UUID
}

// fastSchedule keeps the Standard Webhooks shape (immediately, then
// growing waits) in a test's time scale.
var fastSchedule = []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}

func newStack(t testing.TB, tune ...func(*config.Config)) *stack {
	t.Helper()
	cfg := testenv.Config(t)
	cfg.Webhooks.RetrySchedule = fastSchedule
	cfg.Webhooks.RelayInterval = 100 * time.Millisecond
	cfg.Webhooks.RelayGrace = time.Second
	for _, f := range tune {
		f(cfg)
	}
	s := &stack{cfg: cfg, store: testenv.Database(t), temporal: testenv.Temporal(t)}
	var err error
	if s.endpoints, err = webhook.NewEndpoints(s.store, cfg); err != nil {
		t.Fatal(err)
	}
	s.dispatcher = delivery.NewDispatcher(s.store, s.temporal, cfg.Webhooks)
	seller, err := auth.CreateSeller(t.Context(), s.store, "Webhook Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	s.seller = seller.Seller.ID
	return s
}

// worker starts the worker with the stack's configuration.
func (s *stack) worker(t testing.TB) { testenv.Worker(t, s.cfg, s.store, s.temporal) }

func (s *stack) endpoint(t testing.TB, url string, events ...string) webhook.EndpointWithSecret {
	t.Helper()
	ep, err := s.endpoints.Create(t.Context(), s.seller, webhook.EndpointInput{URL: url, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// record writes an event as an offer or order persistence activity will:
// inside a transaction, with a payload shaped like the offer.
func (s *stack) record(t testing.TB, typ string) uuid.UUID {
	t.Helper()
	objectID := uuid.Must(uuid.NewV7())
	payload := fmt.Sprintf(`{"id":"%s","status":"accepted","created_at":"2026-01-02T03:04:05Z","checkout_redirect_url":"https://checkout.example/%s"}`, objectID, objectID)
	var id uuid.UUID
	err := s.store.InTx(t.Context(), func(q *dbgen.Queries) error {
		var err error
		id, err = webhook.Record(t.Context(), q, webhook.NewEvent{SellerID: s.seller, Type: typ, ObjectID: objectID, Payload: json.RawMessage(payload)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// emit records and dispatches an event.
func (s *stack) emit(t testing.TB, typ string) uuid.UUID {
	t.Helper()
	id := s.record(t, typ)
	if err := s.dispatcher.Dispatch(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	return id
}

// settled waits until the delivery of an event to an endpoint leaves
// pending and returns it.
func (s *stack) settled(t testing.TB, eventID, endpointID uuid.UUID, timeout time.Duration) dbgen.WebhookDelivery {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		dl, err := s.store.GetDelivery(t.Context(), dbgen.GetDeliveryParams{EventID: eventID, EndpointID: endpointID})
		if err == nil && dl.Status != "pending" {
			return dl
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delivery of %s to %s did not settle within %s: %+v %v", eventID, endpointID, timeout, dl, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *stack) attempts(t testing.TB, eventID uuid.UUID) []dbgen.WebhookAttempt {
	t.Helper()
	a, err := s.store.ListEventAttempts(t.Context(), eventID)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
