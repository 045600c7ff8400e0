package clustertest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/internal/testing/csvgen"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
)

// importRented imports the product the lifecycles rent through the API.
func importRented(t testing.TB, c *sellerclient.Client) {
	t.Helper()
	var result struct {
		Status string `json:"status"`
	}
	status, raw, err := c.Do(t.Context(), http.MethodPost, "/v1/catalog/import", map[string]any{"products": []map[string]any{{
		"title": "Cluster server", "is_active": true, "seller_product_type": "hardware",
		"seller_product_references": []map[string]any{{"source": rented.Source, "reference": rented.Reference}},
		"price":                     map[string]any{"currency": rented.Currency, "net": rented.Net, "gross": rented.Net * 119 / 100},
	}}}, &result)
	if err != nil || status != http.StatusOK || result.Status != "completed" {
		t.Fatalf("importing the rented product: %d %s %v", status, raw, err)
	}
}

// csvImport is a CSV catalog import job of a generated file.
type csvImport struct {
	ID    string
	Stats csvgen.Stats
}

// csvJob is a job as GET /v1/catalog/imports/{id} shows it.
type csvJob struct {
	Status    string `json:"status"`
	Processed int64  `json:"processed"`
	Succeeded int64  `json:"succeeded"`
	Failed    int64  `json:"failed"`
}

// startCSVImport creates a job through one API and uploads a generated
// file of rows rows (about 1 % of them invalid) to its link.
func startCSVImport(t testing.TB, c *sellerclient.Client, rows int) csvImport {
	t.Helper()
	var file bytes.Buffer
	stats, err := csvgen.Generate(&file, rows, 16)
	if err != nil {
		t.Fatal(err)
	}
	id, err := c.ImportCSV(t.Context(), "cluster.csv", bytes.NewReader(file.Bytes()), int64(file.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return csvImport{ID: id, Stats: stats}
}

// job reads the job through an API.
func (x csvImport) job(ctx context.Context, c *sellerclient.Client) (csvJob, error) {
	var job csvJob
	status, raw, err := c.Do(ctx, http.MethodGet, "/v1/catalog/imports/"+x.ID, nil, &job)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("GET /v1/catalog/imports/%s answered %d: %s", x.ID, status, raw)
	}
	return job, err
}

// activityWorker is the process id of the worker that runs (or last ran)
// the pending activity of a workflow, read from the activity's worker
// identity, which the SDK makes "pid@host@…"; 0 when none is pending.
func activityWorker(ctx context.Context, tc client.Client, workflowID string) (int, error) {
	resp, err := tc.DescribeWorkflowExecution(ctx, workflowID, "")
	if err != nil {
		return 0, err
	}
	for _, a := range resp.GetPendingActivities() {
		if identity := a.GetLastWorkerIdentity(); identity != "" {
			pid, _, _ := strings.Cut(identity, "@")
			return strconv.Atoi(pid)
		}
	}
	return 0, nil
}
