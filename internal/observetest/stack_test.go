package observetest

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api"
	"github.com/tenurehq/tenure/catalog"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/csvimport"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/identity"
	"github.com/tenurehq/tenure/internal/sellerclient"
	"github.com/tenurehq/tenure/internal/testenv"
	"github.com/tenurehq/tenure/telemetry"
	"github.com/tenurehq/tenure/webhook"
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
	var opts client.Options
	if err := telemetry.TemporalOptions(&opts, s.metrics, tracing); err != nil {
		t.Fatal(err)
	}
	tc := testenv.ClientWith(t, testenv.Namespace(t), opts)
	s.temporal = tc
	s.metrics.WatchPool(s.store.Pool)
	s.metrics.WatchBacklog(webhook.UndispatchedBacklog(s.store), logger)
	s.metrics.WatchBacklog(csvimport.QueueBacklog(s.store), logger)
	testenv.ObservedWorker(t, s.cfg, s.store, tc, s.metrics)
	baseURL := testenv.ServeAPI(t, api.Deps{Config: s.cfg, Store: s.store, Temporal: tc,
		Tokens: identity.NewTokens(s.cfg.Auth.SigningKey, s.cfg.Auth.TokenTTL), Logger: logger, Metrics: s.metrics})
	s.adminURL = serveAdmin(t, s.metrics, telemetry.NewReadiness(s.store.Pool, tc))

	seller, err := identity.CreateSeller(t.Context(), s.store, "Observed Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	s.sellerID = seller.Seller.ID
	valid, rejections := catalog.ValidateBatch([]catalog.ProductInput{{
		Title: "Workstation", Type: "hardware", IsActive: true,
		Price:      catalog.Money{Currency: "EUR", Net: 250000, Gross: 297500},
		References: []catalog.Reference{{Source: "sku", Reference: "workstation"}},
	}}, "EUR")
	if len(rejections) > 0 {
		t.Fatal(rejections)
	}
	err = s.store.InTx(t.Context(), func(q *dbgen.Queries) error {
		_, _, err := catalog.Importer{Policy: catalog.NewPolicy(s.cfg)}.Upsert(t.Context(), q, seller.Seller.ID, valid)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s.product = sellerclient.Product{Source: "sku", Reference: "workstation", Net: 250000, Currency: "EUR"}
	if s.client, err = sellerclient.Login(t.Context(), baseURL, seller.Credentials.ClientID, seller.Credentials.ClientSecret); err != nil {
		t.Fatal(err)
	}
	s.receiver = testenv.NewReceiver(t, testenv.Always(http.StatusNoContent))
	status, body, err := s.client.Do(t.Context(), http.MethodPost, "/v1/webhook-endpoints", map[string]any{"url": s.receiver.URL}, nil)
	if err != nil || status != http.StatusCreated {
		t.Fatalf("registering the webhook endpoint: %d %s %v", status, body, err)
	}
	return s
}

// serveAdmin serves the admin listener on a free port until the test ends
// and returns its base URL.
func serveAdmin(t *testing.T, m *telemetry.Metrics, ready telemetry.Readiness) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- telemetry.NewAdmin(m, ready, testenv.AppLogger()).Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("admin listener: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
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
