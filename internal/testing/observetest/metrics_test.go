package observetest

import (
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// labels is a shorthand for a label set.
type labels = map[string]string

// TestMetricsMoveWithRealOperations scrapes the admin listener before and
// after real operations (an offer driven to an order, its webhooks
// delivered to a receiver, a CSV import, a request to no operation) and
// checks that each of Tenure's series moved by what happened.
func TestMetricsMoveWithRealOperations(t *testing.T) {
	s := newStack(t, false)
	for _, path := range []string{"/healthz", "/readyz"} {
		if status, body := get(t, s.adminURL+path); status != http.StatusOK {
			t.Errorf("GET %s on the admin listener: %d %s", path, status, body)
		}
	}
	before := scrape(t, s.adminURL)

	s.offerToOrder(t, "observed-1")
	s.receiver.WaitDelivered(t, 3, time.Minute)
	if status, _, err := s.client.Do(t.Context(), http.MethodGet, "/v1/no-such-operation/123", nil, nil); err != nil || status != http.StatusNotFound {
		t.Fatalf("GET of an unknown path: %d %v", status, err)
	}
	job := s.importCSV(t)

	after := scrape(t, s.adminURL)
	moved := func(name string, l labels, atLeast float64) {
		t.Helper()
		if d := after.sum(name, l) - before.sum(name, l); d < atLeast {
			t.Errorf("%s%v moved by %v, want at least %v", name, l, d, atLeast)
		}
	}
	moved("tenure_http_requests_total", labels{"operation": "createOffer", "method": "POST", "status_class": "2xx"}, 1)
	moved("tenure_http_requests_total", labels{"operation": "runScenarioSimulation", "method": "POST", "status_class": "2xx"}, 2)
	moved("tenure_http_requests_total", labels{"operation": "unmatched", "method": "GET", "status_class": "4xx"}, 1)
	// The seller logged in before the first scrape: its token request is
	// counted under the route's name, not its path.
	if n := after.sum("tenure_http_requests_total", labels{"operation": "issueToken", "method": "POST", "status_class": "2xx"}); n < 1 {
		t.Errorf("token requests counted as issueToken: %v, want at least 1", n)
	}
	moved("tenure_http_request_duration_seconds_count", labels{"operation": "createOffer", "method": "POST"}, 1)
	moved("tenure_transitions_total", labels{"entity": "offer", "from": "none", "to": "created"}, 1)
	moved("tenure_transitions_total", labels{"entity": "offer", "from": "created", "to": "pending_review"}, 1)
	moved("tenure_transitions_total", labels{"entity": "offer", "from": "pending_review", "to": "accepted"}, 1)
	moved("tenure_transitions_total", labels{"entity": "order", "from": "none", "to": "created"}, 1)
	moved("tenure_webhook_attempts_total", labels{"outcome": "delivered", "error_class": "none"}, 3)
	moved("tenure_webhook_delivery_latency_seconds_count", nil, 3)
	moved("tenure_csv_rows_total", labels{"result": "succeeded"}, float64(job.Succeeded))
	moved("tenure_csv_rows_total", labels{"result": "failed"}, float64(job.Failed))
	moved("tenure_db_pool_acquires_total", nil, 10)
	moved("temporal_workflow_task_execution_latency_seconds_count", nil, 1)
	moved("temporal_request_total", nil, 1)
	if rows := after.sum("tenure_csv_rows_total", nil) - before.sum("tenure_csv_rows_total", nil); rows != float64(job.Processed) {
		t.Errorf("CSV rows counted %v, the job processed %d", rows, job.Processed)
	}
	for _, name := range []string{"tenure_webhook_events_undispatched", "tenure_csv_imports", "tenure_db_pool_max_connections",
		"temporal_worker_task_slots_available", "go_goroutines", "process_resident_memory_bytes"} {
		if !after.has(name) {
			t.Errorf("%s is not exported", name)
		}
	}
	if got := after.sum("tenure_db_pool_max_connections", nil); got != float64(s.store.Pool.Config().MaxConns) {
		t.Errorf("pool size exported as %v, the pool has %d", got, s.store.Pool.Config().MaxConns)
	}
	for _, status := range []string{"pending", "queued", "running"} {
		if len(after["tenure_csv_imports"]) > 0 && after.sum("tenure_csv_imports", labels{"status": status}) != 0 {
			t.Errorf("tenure_csv_imports{status=%q} is not 0 once the only import completed", status)
		}
	}
}

// csvJob is what the test reads of a CSV import.
type csvJob struct {
	Status    string `json:"status"`
	Processed int64  `json:"processed"`
	Succeeded int64  `json:"succeeded"`
	Failed    int64  `json:"failed"`
}

// importCSV imports the example catalog file and waits until the job
// completed.
func (s *stack) importCSV(t *testing.T) csvJob {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.client.ImportCSVFile(t.Context(), filepath.Join(root, "examples", "catalog.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return s.awaitImport(t, id, "completed")
}

// awaitImport waits until the import ends and requires it to have ended
// as want.
func (s *stack) awaitImport(t *testing.T, id, want string) csvJob {
	t.Helper()
	path := "/v1/catalog/imports/" + id
	if err := s.client.Await(t.Context(), path, "completed", "failed", "cancelled"); err != nil {
		t.Fatal(err)
	}
	var job csvJob
	status, body, err := s.client.Do(t.Context(), http.MethodGet, path, nil, &job)
	if err != nil || status != http.StatusOK {
		t.Fatalf("GET the import: %d %s %v", status, body, err)
	}
	if job.Status != want {
		t.Fatalf("the import ended %s, want %s: %s", job.Status, want, body)
	}
	return job
}
