package observetest

import (
	"io"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is Tenure in one process as `tenure dev` runs it, observed: the
// API, the worker and the admin listener sharing one metrics registry, a
// Temporal client with the SDK's metrics (and its tracing interceptor when
// asked), a sandbox seller with a product, and a webhook endpoint that a
// receiver on 127.0.0.1 answers with 204.
type stack struct {
	cfg      *config.Config
	store    *db.Store
	temporal client.Client
	sellerID uuid.UUID
	metrics  *telemetry.Metrics
	adminURL string
	client   *sellerclient.Client
	product  sellerclient.Product
	receiver *testenv.Receiver
}

func newStack(t *testing.T, tracing bool) *stack {
	t.Helper()
	logger := testenv.AppLogger()
	s := &stack{cfg: testenv.Config(t), store: testenv.Database(t), metrics: telemetry.NewMetrics()}
	s.temporal = testenv.ObservedTemporal(t, s.metrics, tracing)
	s.metrics.WatchPool(s.store.Pool)
	s.metrics.WatchBacklog(webhook.UndispatchedBacklog(s.store), logger)
	s.metrics.WatchBacklog(csvimport.QueueBacklog(s.store), logger)
	testenv.ObservedWorker(t, s.cfg, s.store, s.temporal, s.metrics)
	baseURL := testenv.ObservedAPI(t, s.cfg, s.store, s.temporal, s.metrics)
	s.adminURL = testenv.ServeAdmin(t, s.metrics, telemetry.NewReadiness(s.store.Pool, s.temporal))

	seller := testenv.NewSeller(t, s.store, s.cfg, baseURL, "Observed Shop", testenv.Workstation())
	s.sellerID, s.client, s.product = seller.ID, seller.Client, seller.Product
	s.receiver = testenv.NewReceiver(t, testenv.Always(http.StatusNoContent))
	status, body, err := s.client.Do(t.Context(), http.MethodPost, "/v1/webhook-endpoints", map[string]any{"url": s.receiver.URL}, nil)
	if err != nil || status != http.StatusCreated {
		t.Fatalf("registering the webhook endpoint: %d %s %v", status, body, err)
	}
	return s
}

// offerToOrder creates an offer and drives it to an order through the
// sandbox simulations (review, then the customer's acceptance) and returns
// the offer's id; the offer's workflow announces three events.
func (s *stack) offerToOrder(t *testing.T, reference string) string {
	t.Helper()
	id, err := s.client.CreateOffer(t.Context(), sellerclient.OfferPayload(reference, s.product, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, scenario := range []string{"mark_offer_for_review", "mark_offer_accepted"} {
		if err := s.client.Simulate(t.Context(), scenario, id); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// get fetches a URL and returns its status and body.
func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}
