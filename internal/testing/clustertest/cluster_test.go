package clustertest

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/catalogimport"
	"github.com/tenurehq/tenure/workflows/contract"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
)

// csvRows is the size of the CSV import that runs while a worker is killed.
const csvRows = 100_000

// The split topology on a real Temporal server: two API and two worker
// processes on the pinned Temporal server persisting to PostgreSQL. Forty
// lifecycles, each moving between the two APIs at every step, and a CSV
// import run while the worker running the import is killed with SIGKILL
// and a third is started. Every lifecycle ends as planned, its workflows
// have closed on the server, the import stores every valid row once, and
// every event is delivered once.
func TestSplitTopology(t *testing.T) {
	if os.Getenv("TENURE_TEST_CLUSTER") == "" {
		t.Skip("runs under make test-cluster (TENURE_TEST_CLUSTER=1)")
	}
	began := time.Now()
	work := workDir(t)
	pg := newPostgres(t)
	temporal := startTemporal(t, pg, work)
	const namespace = "tenure"
	temporal.CreateNamespace(t, namespace)
	serverReady := time.Since(began)

	database := pg.name("tenure")
	pg.dropAtEnd(t, database)
	d := newDeployment(t, work, pg.url(database), temporal.Address, namespace)
	d.run(t, "migrate", "--create-database")
	workers := d.workers(t, "worker-1", "worker-2")
	apis := []string{d.serve(t, "serve-1"), d.serve(t, "serve-2")}

	var seller struct {
		SellerID     string `json:"seller_id"`
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	d.runJSON(t, &seller, "sellers", "create", "--name", "Cluster Shop")
	rcv := testenv.NewReceiver(t, testenv.Always(http.StatusOK))
	d.run(t, "sellers", "set-webhook", seller.SellerID, "--url", rcv.URL)
	statuses := &statusCounter{}
	clients := make([]*sellerclient.Client, len(apis))
	for i, base := range apis {
		c, err := sellerclient.Login(t.Context(), base, seller.ClientID, seller.ClientSecret)
		if err != nil {
			t.Fatalf("token from %s: %v", base, err)
		}
		statuses.watch(c)
		clients[i] = c
	}
	importRented(t, clients[1])
	tc, err := client.Dial(client.Options{HostPort: temporal.Address, Namespace: namespace, Logger: testenv.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	t.Logf("Temporal server on PostgreSQL ready in %s, the deployment in %s", serverReady.Round(time.Millisecond),
		(time.Since(began) - serverReady).Round(time.Millisecond))

	// The load: the import first, then every lifecycle at once.
	peakConnections := pg.watchConnections(t)
	driveBegan := time.Now()
	csv := startCSVImport(t, clients[0], csvRows)
	drv := &driver{apis: clients}
	type outcome struct {
		journeys []*journey
		errs     []error
	}
	finished := make(chan outcome, 1)
	go func() {
		journeys, errs := drv.run(t.Context(), plans)
		finished <- outcome{journeys, errs}
	}()

	victim, killedAt := killPoint(t, tc, csv, clients[0], drv, workers)
	stepsAtKill, totalSteps := drv.Done.Load(), plans.steps()
	victim.kill()
	killed := time.Now()
	if stepsAtKill == totalSteps || killedAt.Status != "running" {
		t.Fatalf("the kill came too late to test anything: %d of %d steps done, the import %s", stepsAtKill, totalSteps, killedAt.Status)
	}
	t.Logf("%s killed (SIGKILL) after %d of %d lifecycle steps and %d of %d CSV rows", victim.name, stepsAtKill, totalSteps,
		killedAt.Processed, csvRows)
	time.Sleep(time.Second)
	d.workers(t, "worker-3")

	out := <-finished
	lifecyclesTook := time.Since(driveBegan)
	for _, err := range out.errs {
		if err != nil {
			t.Error(err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	for _, j := range out.journeys {
		closed(t, tc, offer.WorkflowID(uuid.MustParse(j.offerID)))
		if j.orderID != "" {
			closed(t, tc, order.WorkflowID(uuid.MustParse(j.orderID)))
		}
		if j.contract.Status != "" {
			closed(t, tc, contract.WorkflowID(uuid.MustParse(j.contract.ID)))
		}
	}

	job := waitForCSV(t, csv, clients[1])
	csvTook := time.Since(driveBegan)
	valid := int64(csv.Stats.Rows - csv.Stats.Invalid)
	if job.Status != "completed" || job.Processed != csvRows || job.Succeeded != valid || job.Failed != int64(csv.Stats.Invalid) {
		t.Errorf("the import ended %+v; the file has %d rows, %d of them invalid", job, csvRows, csv.Stats.Invalid)
	}

	want := expectedEvents(out.journeys)
	rcv.WaitDelivered(t, eventCount(want), 3*time.Minute)
	// Anything delivered twice or unexpectedly would come within the
	// relay's grace and the first retries.
	time.Sleep(3 * time.Second)
	report := checkDeliveries(rcv, want, killed)
	for _, p := range report.Problems {
		t.Error(p)
	}
	connections := peakConnections()

	t.Logf("%d lifecycles (%s) over both APIs, all under way at once, in %s; %s; %d answers other than 2xx (%s)",
		len(out.journeys), plans, lifecyclesTook.Round(time.Millisecond), durations(out.journeys), statuses.failed(), statuses)
	t.Logf("CSV import of %d rows (%d invalid) completed in %s: %.0f rows/s", csvRows, csv.Stats.Invalid,
		csvTook.Round(time.Millisecond), float64(csvRows)/csvTook.Seconds())
	t.Logf("%d events delivered once each (%d webhook requests; ids delivered just before the kill and sent again: %d), the last %s after the load began",
		report.Events, report.Requests, report.Repeated, report.Last.Sub(driveBegan).Round(time.Millisecond))
	t.Logf("at most %d PostgreSQL connections to the run's databases (Temporal's and Tenure's)", connections)
	t.Logf("whole test %s", time.Since(began).Round(time.Millisecond))
}

// killPoint waits until the import has stored rows and a quarter of the
// lifecycle steps have taken effect, and returns the worker running the
// import's activity and the job as it was then.
func killPoint(t *testing.T, tc client.Client, csv csvImport, c *sellerclient.Client, drv *driver, workers []*process) (*process, csvJob) {
	t.Helper()
	total := plans.steps()
	deadline := time.Now().Add(2 * time.Minute)
	for ; time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if drv.Done.Load() < total/4 {
			continue
		}
		job, err := csv.job(t.Context(), c)
		if err != nil || job.Processed == 0 {
			continue
		}
		pid, err := activityWorker(t.Context(), tc, catalogimport.WorkflowID(uuid.MustParse(csv.ID)))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range workers {
			if w.cmd.Process.Pid == pid {
				return w, job
			}
		}
	}
	t.Fatalf("the import was not running on a worker with %d of %d lifecycle steps done", drv.Done.Load(), total)
	return nil, csvJob{}
}

// workDir is a directory for the run's configuration, logs and data; it is
// kept when the test fails, to read the processes' logs.
func workDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "tenure-cluster-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the logs and data of the run are kept in %s", dir)
			return
		}
		_ = os.RemoveAll(dir)
	})
	return dir
}

// closed checks that a workflow has completed on the server.
func closed(t *testing.T, tc client.Client, workflowID string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := tc.DescribeWorkflowExecution(t.Context(), workflowID, "")
		if err != nil {
			t.Errorf("%s: %v", workflowID, err)
			return
		}
		status := resp.GetWorkflowExecutionInfo().GetStatus()
		if status == enums.WORKFLOW_EXECUTION_STATUS_COMPLETED {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s is %s", workflowID, status)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitForCSV polls the job through an API until it has ended.
func waitForCSV(t *testing.T, x csvImport, c *sellerclient.Client) csvJob {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		job, err := x.job(t.Context(), c)
		if err == nil && (job.Status == "completed" || job.Status == "failed" || job.Status == "cancelled") {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("the import is still %+v (%v)", job, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// durations describes how long each plan's lifecycles took: the shortest
// and longest, and the median.
func durations(journeys []*journey) string {
	took := map[*plan][]time.Duration{}
	for _, j := range journeys {
		took[j.plan] = append(took[j.plan], j.took)
	}
	var parts []string
	for _, p := range plans {
		d := took[p]
		slices.Sort(d)
		parts = append(parts, fmt.Sprintf("%s %s–%s (median %s)", p.name,
			d[0].Round(100*time.Millisecond), d[len(d)-1].Round(100*time.Millisecond), d[(len(d)-1)/2].Round(100*time.Millisecond)))
	}
	return "each lifecycle took " + strings.Join(parts, ", ")
}

// String lists the plans with their counts.
func (plans planSet) String() string {
	parts := make([]string, len(plans))
	for i, p := range plans {
		parts[i] = fmt.Sprintf("%d %s", p.count, p.name)
	}
	return strings.Join(parts, ", ")
}
