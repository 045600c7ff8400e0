package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/delivery"
)

func TestSetWebhookCommand(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	cfg := testenv.Config(t)
	seller, err := auth.CreateSeller(t.Context(), store, "Hook Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TENURE_DATABASE_URL="+databaseURL, "TENURE_WEBHOOKS_SECRET_KEY="+cfg.Webhooks.SecretKey)

	var out webhookEndpointOutput
	raw := tenureCLI(t, env, "sellers", "set-webhook", seller.Seller.ID.String(), "--url", "https://shop.example/hooks",
		"--events", "offer.accepted, order.created", "--description", "ERP", "--json")
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	row, err := store.GetWebhookEndpointByID(t.Context(), uuid.MustParse(out.EndpointID))
	if err != nil || row.SellerID != seller.Seller.ID || row.Url != "https://shop.example/hooks" || len(row.Events) != 2 || row.Description != "ERP" {
		t.Fatalf("stored %+v %v", row, err)
	}
	box, _ := webhook.NewSecretBox(cfg.Webhooks.SecretKey)
	if secrets, err := box.SigningSecrets(row, time.Now()); err != nil || secrets[0] != out.Secret || !strings.HasPrefix(out.Secret, "whsec_") {
		t.Errorf("the printed secret is not the stored one: %v", err)
	}

	// The command refuses what the API refuses, naming the field, and stores nothing.
	for args, want := range map[string]string{
		"--url ftp://shop.example/x":                  "field url",
		"--url https://shop.example/x --events ping":  `events[0]: unknown event type "ping"`,
		"--url https://shop.example/x --events a,b,c": "events[0]",
	} {
		cmd := exec.Command(mustBuild(t), append([]string{"sellers", "set-webhook", seller.Seller.ID.String()}, strings.Fields(args)...)...)
		cmd.Env, cmd.Dir = env, t.TempDir()
		combined, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(combined), want) {
			t.Errorf("%s: %v %s", args, err, combined)
		}
	}
	if rows, _ := store.ListWebhookEndpoints(t.Context(), seller.Seller.ID); len(rows) != 1 {
		t.Errorf("refused registrations stored %d endpoints", len(rows)-1)
	}
}

func mustBuild(t testing.TB) string {
	t.Helper()
	bin, err := buildTenure()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// workerProcess is a `tenure worker` subprocess.
type workerProcess struct {
	cmd    *exec.Cmd
	output *testenv.Output
	done   chan error
}

func startWorker(t testing.TB, env []string) *workerProcess {
	t.Helper()
	w := &workerProcess{cmd: exec.Command(mustBuild(t), "worker"), output: &testenv.Output{}, done: make(chan error, 1)}
	w.cmd.Env, w.cmd.Dir = env, t.TempDir()
	w.cmd.Stdout, w.cmd.Stderr = w.output, w.output
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.done <- w.cmd.Wait() }()
	t.Cleanup(func() {
		if w.cmd.ProcessState == nil {
			_ = w.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-w.done:
			case <-time.After(30 * time.Second):
				_ = w.cmd.Process.Kill()
				<-w.done
			}
		}
		if t.Failed() {
			t.Logf("tenure worker output:\n%s", w.output)
		}
	})
	return w
}

func (w *workerProcess) kill(t testing.TB) {
	t.Helper()
	if err := w.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-w.done
}

// The worker is killed (SIGKILL) in the middle of a burst and started
// again: every event arrives at least once, and a receiver that
// de-duplicates by webhook-id processes each exactly once. A quarter of the
// events are committed without being dispatched, as when the API process
// dies between its commit and its dispatch: the restarted worker's relay
// delivers them.
func TestDeliveriesSurviveAKilledWorker(t *testing.T) {
	const burst = 200
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 10)
	pool := store.Pool
	namespace := testenv.Namespace(t)
	cfg := testenv.Config(t)
	cfg.Webhooks.RetrySchedule = []time.Duration{0, 500 * time.Millisecond, time.Second, 2 * time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 8 * time.Second}
	env := append(os.Environ(),
		"TENURE_DATABASE_URL="+databaseURL,
		"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TENURE_TEMPORAL_NAMESPACE="+namespace,
		"TENURE_WEBHOOKS_SECRET_KEY="+cfg.Webhooks.SecretKey,
		"TENURE_WEBHOOKS_RETRY_SCHEDULE=0s,500ms,1s,2s,2s,4s,4s,8s",
		"TENURE_WEBHOOKS_ATTEMPT_TIMEOUT=2s",
		"TENURE_WEBHOOKS_RELAY_INTERVAL=200ms",
		"TENURE_WEBHOOKS_RELAY_GRACE=500ms",
		"TENURE_LOG_LEVEL=warn",
	)
	// Each answer takes a little while, so the burst is still under way
	// when the worker dies.
	rcv := testenv.NewReceiver(t, func(*http.Request, int) (int, time.Duration) { return http.StatusOK, 20 * time.Millisecond })
	seller, err := auth.CreateSeller(t.Context(), store, "Burst Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	endpoints, err := webhook.NewEndpoints(store, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := endpoints.Create(t.Context(), seller.Seller.ID, webhook.EndpointInput{URL: rcv.URL})
	if err != nil {
		t.Fatal(err)
	}
	dispatcher := delivery.NewDispatcher(store, testenv.ClientFor(t, namespace), cfg.Webhooks)

	worker := startWorker(t, env)
	ids := map[string]bool{}
	var toDispatch []uuid.UUID
	for i := range burst {
		var id uuid.UUID
		err := store.InTx(t.Context(), func(q *dbgen.Queries) error {
			object := uuid.Must(uuid.NewV7())
			id, err = webhook.Record(t.Context(), q, webhook.NewEvent{SellerID: seller.Seller.ID, Type: webhook.OrderCreated, ObjectID: object,
				Payload: json.RawMessage(fmt.Sprintf(`{"id":"%s","status":"created","n":%d}`, object, i))})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		ids[id.String()] = true
		if i < burst*3/4 {
			toDispatch = append(toDispatch, id)
		}
	}
	if err := dispatcher.Dispatch(t.Context(), toDispatch...); err != nil {
		t.Fatal(err)
	}
	rcv.WaitDelivered(t, burst/5, time.Minute)
	worker.kill(t)
	killedAt := len(rcv.Delivered())
	t.Logf("worker killed after %d of %d events arrived", killedAt, burst)
	if killedAt >= burst {
		t.Fatal("the burst was over before the worker was killed")
	}

	startWorker(t, env)
	delivered := rcv.WaitDelivered(t, burst, 3*time.Minute)
	duplicates := 0
	for id, n := range delivered {
		if !ids[id] {
			t.Errorf("an unknown id %s arrived", id)
		}
		duplicates += n - 1
	}
	for id := range ids {
		if delivered[id] == 0 {
			t.Errorf("event %s never arrived", id)
		}
	}
	t.Logf("%d distinct events processed by the de-duplicating receiver, %d duplicate requests skipped", len(delivered), duplicates)

	// Every delivery settles as delivered in the event log.
	deadline := time.Now().Add(time.Minute)
	for {
		var settled int
		_ = pool.QueryRow(t.Context(), "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'", ep.Endpoint.ID).Scan(&settled)
		if settled == burst {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d deliveries recorded as delivered", settled, burst)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
