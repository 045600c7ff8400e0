package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/contractcheck"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

// The worker is killed (SIGKILL) in the middle of 200 lifecycles and
// started again: every lifecycle finishes, the database and the workflows
// agree on every offer's and order's status, every contract runs, and
// every event is delivered.
func TestLifecyclesSurviveAKilledWorker(t *testing.T) {
	const lifecycles, concurrency = 200, 20
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 20)
	pool := store.Pool
	namespace := testenv.Namespace(t)
	tc := testenv.ClientFor(t, namespace)
	cfg := testenv.Config(t)
	env := append(os.Environ(),
		"TENURE_DATABASE_URL="+databaseURL,
		"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TENURE_TEMPORAL_NAMESPACE="+namespace,
		"TENURE_WEBHOOKS_SECRET_KEY="+cfg.Webhooks.SecretKey,
		"TENURE_WEBHOOKS_RETRY_SCHEDULE=0s,500ms,1s,2s,4s,8s,8s",
		"TENURE_WEBHOOKS_RELAY_INTERVAL=200ms",
		"TENURE_WEBHOOKS_RELAY_GRACE=1s",
		"TENURE_LOG_LEVEL=warn",
	)

	// The API runs in the test; the worker is a process of its own.
	baseURL := testenv.API(t, cfg, store, tc)

	client, rcv := serverSeller(t, store, cfg, baseURL, "Lifecycle Shop")

	worker := startWorker(t, env)
	var done atomic.Int64
	results := make([]sellerclient.Lifecycle, lifecycles)
	errs := make([]error, lifecycles)
	next := make(chan int)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				product := sellerclient.Product{Source: "sku", Reference: "server", Net: 500000, Currency: "EUR"}
				serials := []string{fmt.Sprintf("SN-%03d-A", i), fmt.Sprintf("SN-%03d-B", i)}
				results[i], errs[i] = client.Run(context.Background(), fmt.Sprintf("life-%03d", i), product, serials)
				done.Add(1)
			}
		}()
	}
	go func() {
		for i := range lifecycles {
			next <- i
		}
		close(next)
	}()
	for done.Load() < lifecycles/4 {
		time.Sleep(20 * time.Millisecond)
	}
	worker.kill(t)
	t.Logf("worker killed after %d of %d lifecycles", done.Load(), lifecycles)
	time.Sleep(time.Second)
	startWorker(t, env)
	wg.Wait()

	for i, err := range errs {
		if err != nil {
			t.Fatalf("lifecycle %d: %v", i, err)
		}
	}
	for _, l := range results {
		var offerStatus, orderStatus string
		_ = pool.QueryRow(t.Context(), "SELECT status FROM offers WHERE id = $1", l.OfferID).Scan(&offerStatus)
		_ = pool.QueryRow(t.Context(), "SELECT status FROM orders WHERE id = $1", l.OrderID).Scan(&orderStatus)
		if offerStatus != "accepted" || orderStatus != "completed" {
			t.Errorf("%s: offer %s, order %s", l.Reference, offerStatus, orderStatus)
		}
		agree(t, tc, offer.WorkflowID(uuidOf(t, l.OfferID)), offerStatus)
		agree(t, tc, order.WorkflowID(uuidOf(t, l.OrderID)), orderStatus)
	}

	// Six events a lifecycle: offer.pending_review, offer.accepted,
	// order.created, order.completed, contract.started and
	// contract.installment_due.
	delivered := rcv.WaitDelivered(t, 6*lifecycles, 3*time.Minute)
	var events int
	// The test's database holds this one seller's events.
	_ = pool.QueryRow(t.Context(), "SELECT count(*) FROM events").Scan(&events)
	if events != 6*lifecycles || len(delivered) != events {
		t.Errorf("%d events recorded, %d delivered, want %d", events, len(delivered), 6*lifecycles)
	}
	// Each lifecycle's rented line is a contract whose term the shipment
	// started, its first installment due on the shipment's day (its
	// events are in).
	var running, due int
	_ = pool.QueryRow(t.Context(), "SELECT count(*) FROM rental_contracts WHERE status = 'running'").Scan(&running)
	_ = pool.QueryRow(t.Context(), "SELECT count(*) FROM contract_installments WHERE number = 1 AND status = 'due'").Scan(&due)
	if running != lifecycles || due != lifecycles {
		t.Errorf("%d contracts running, %d first installments due, want %d", running, due, lifecycles)
	}
}

// agree checks that an entity's workflow has ended and shows the status
// the database has.
func agree(t *testing.T, tc client.Client, workflowID, status string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := tc.DescribeWorkflowExecution(t.Context(), workflowID, "")
		if err != nil {
			t.Fatalf("%s: %v", workflowID, err)
		}
		info := resp.GetWorkflowExecutionInfo()
		var shown string
		if payload := info.GetSearchAttributes().GetIndexedFields()[searchattr.Status.GetName()]; payload != nil {
			_ = converter.GetDefaultDataConverter().FromPayload(payload, &shown)
		}
		if info.GetStatus() == enums.WORKFLOW_EXECUTION_STATUS_COMPLETED && shown == status {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s is %s showing %q, the database says %s", workflowID, info.GetStatus(), shown, status)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func uuidOf(t *testing.T, s string) uuid.UUID {
	t.Helper()
	id, err := uuid.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// serverSeller is a new seller with the server catalog and a webhook
// endpoint on a receiver that accepts every event, logged in to the API at
// apiURL through a client whose responses are checked against the contract.
func serverSeller(t *testing.T, store *db.Store, cfg *config.Config, apiURL, name string) (*sellerclient.Client, *testenv.Receiver) {
	t.Helper()
	seller := testenv.NewSeller(t, store, cfg, apiURL, name, serverProduct())
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	endpoints, err := webhook.NewEndpoints(store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := endpoints.Create(t.Context(), seller.ID, webhook.EndpointInput{URL: rcv.URL}); err != nil {
		t.Fatal(err)
	}
	client := seller.Client
	client.HTTP.Transport = contractcheck.Transport(t, client.HTTP.Transport)
	return client, rcv
}
