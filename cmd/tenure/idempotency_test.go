package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// serveProcess is a `tenure serve` subprocess.
type serveProcess struct {
	cmd    *exec.Cmd
	url    string
	output *testenv.Output
	done   chan error
}

// startServe runs `tenure serve` on a free port and waits until it is
// ready.
func startServe(t *testing.T, env []string) *serveProcess {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
	s := &serveProcess{cmd: exec.Command(mustBuild(t), "serve"), url: "http://" + addr, output: &testenv.Output{}, done: make(chan error, 1)}
	s.cmd.Env, s.cmd.Dir = append(env, "TENURE_HTTP_ADDR="+addr), t.TempDir()
	s.cmd.Stdout, s.cmd.Stderr = s.output, s.output
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Signal(syscall.SIGKILL)
			<-s.done
		}
		if t.Failed() {
			t.Logf("tenure serve output:\n%s", s.output)
		}
	})
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(s.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
			err = fmt.Errorf("readyz answers %d", resp.StatusCode)
		}
		if time.Now().After(deadline) {
			t.Fatalf("tenure serve is not ready after a minute (%v):\n%s", err, s.output)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// keyedOffer posts an offer with an Idempotency-Key.
func keyedOffer(url, token, key string, payload []byte) (int, http.Header, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, url+"/v1/offers", bytes.NewReader(payload))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Idempotency-Key", key)
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body, err
}

// The API process is killed (SIGKILL) after an offer's creation and before
// its outcome is recorded and answered: the client sees no answer. Its
// retry with the same Idempotency-Key, to a fresh process, gets the offer
// the first request created (201), and the database holds that one offer.
func TestOfferCreationSurvivesAKilledAPI(t *testing.T) {
	databaseURL := testenv.DatabaseURL(t)
	store := testenv.Connect(t, databaseURL, 4)
	pool := store.Pool
	cfg := testenv.Config(t)
	env := append(os.Environ(),
		"TENURE_DATABASE_URL="+databaseURL,
		"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(t),
		"TENURE_TEMPORAL_NAMESPACE="+testenv.Namespace(t),
		"TENURE_AUTH_SIGNING_KEY="+cfg.Auth.SigningKey,
		"TENURE_LINKS_SIGNING_KEY="+cfg.Links.SigningKey,
		"TENURE_WEBHOOKS_SECRET_KEY="+cfg.Webhooks.SecretKey,
		"TENURE_MANDATES_IBAN_KEYS="+testenv.TestIBANKey,
		"TENURE_IDEMPOTENCY_LEASE=2s",
		"TENURE_DATABASE_MAX_CONNS=5",
		"TENURE_LOG_LEVEL=warn",
	)
	startWorker(t, env)
	seller, err := auth.CreateSeller(t.Context(), store, "Crash Shop", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	serverCatalog(t, store, cfg, seller.Seller.ID)
	payload, err := json.Marshal(sellerclient.OfferPayload("crash-1", sellerclient.Product{Source: "sku", Reference: "server", Net: 500000, Currency: "EUR"}, 1))
	if err != nil {
		t.Fatal(err)
	}

	first := startServe(t, append(env, "TENURE_IDEMPOTENCY_TEST_HOLD_BEFORE_RECORD=true"))
	client, err := sellerclient.Login(t.Context(), first.url, seller.Credentials.ClientID, seller.Credentials.ClientSecret)
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan string, 1)
	go func() {
		status, _, body, err := keyedOffer(first.url, client.Token, "order-4711", payload)
		if err != nil {
			answered <- ""
			return
		}
		answered <- fmt.Sprintf("%d %s", status, body)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(first.output.String(), "holding an idempotent request between its effect and its record") {
		if time.Now().After(deadline) {
			t.Fatalf("the request did not reach the point between effect and record:\n%s", first.output)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-first.done
	if answer := <-answered; answer != "" {
		t.Fatalf("the killed process answered %s", answer)
	}
	var offerID string
	if err := pool.QueryRow(t.Context(), "SELECT id::text FROM offers WHERE seller_offer_reference = 'crash-1'").Scan(&offerID); err != nil {
		t.Fatalf("the first request created no offer before the kill: %v", err)
	}

	// The retry reaches a fresh process; until the dead request's lease
	// has run out it answers 409.
	second := startServe(t, env)
	var status int
	var header http.Header
	var body []byte
	for deadline := time.Now().Add(30 * time.Second); ; {
		status, header, body, err = keyedOffer(second.url, client.Token, "order-4711", payload)
		if err != nil {
			t.Fatal(err)
		}
		if status != http.StatusConflict || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	var created struct {
		ID        string `json:"id"`
		Reference string `json:"seller_offer_reference"`
		Status    string `json:"status"`
	}
	if err := json.Unmarshal(body, &created); err != nil || status != http.StatusCreated {
		t.Fatalf("retry: %d %s", status, body)
	}
	if created.ID != offerID || created.Reference != "crash-1" || created.Status != "created" || header.Get("Idempotent-Replayed") != "" {
		t.Errorf("retry answered %+v (replayed %q), want the first request's offer %s", created, header.Get("Idempotent-Replayed"), offerID)
	}
	var offers int
	if err := pool.QueryRow(t.Context(), "SELECT count(*) FROM offers WHERE seller_id = $1", seller.Seller.ID).Scan(&offers); err != nil || offers != 1 {
		t.Errorf("the seller has %d offers (%v), want 1", offers, err)
	}
	// The outcome is recorded now: a further retry replays it.
	status, header, replayed, err := keyedOffer(second.url, client.Token, "order-4711", payload)
	if err != nil || status != http.StatusCreated || header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(replayed, body) {
		t.Errorf("replay: %d %v %s %v", status, header, replayed, err)
	}
}
