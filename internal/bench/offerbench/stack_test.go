package offerbench_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/internal/testing/sellerclient"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/entity"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// stack is the dev stack in one process, as `tenure dev` runs it: the
// Temporal dev server, the worker, the API on a local port, PostgreSQL,
// and a sandbox seller with a product and a client.
type stack struct {
	temporal client.Client
	store    *db.Store
	client   *sellerclient.Client
	product  sellerclient.Product
	// apiURL is where the API listens.
	apiURL string
	// metrics is the registry the stack records into; nil when none.
	metrics *telemetry.Metrics
	// emptyWorker starts the worker of the empty workflows once.
	emptyWorker sync.Once
}

func newStack(b *testing.B, tune ...func(*config.Config)) *stack {
	b.Helper()
	addr := os.Getenv("TENURE_BENCH_ADMIN_ADDR")
	if addr == "" {
		return newObservedStack(b, nil, false, tune...)
	}
	// Watched: the stack counts into a registry served on the admin
	// address, for Prometheus to scrape while the benchmark runs.
	metrics := telemetry.NewMetrics()
	s := newObservedStack(b, metrics, false, tune...)
	testenv.ServeAdminAt(b, addr, metrics, telemetry.NewReadiness(s.store.Pool, s.temporal))
	return s
}

// newMeteredStack is newStack recording its metrics (the Temporal SDK's
// among them) into a registry of its own, as a deployment does.
func newMeteredStack(b *testing.B) *stack {
	b.Helper()
	if os.Getenv("TENURE_BENCH_ADMIN_ADDR") != "" {
		return newStack(b) // recording and served for Prometheus
	}
	return newObservedStack(b, telemetry.NewMetrics(), false)
}

// newObservedStack is newStack whose API, worker and Temporal client count
// into metrics (none when nil) and, when tracing, whose Temporal client
// carries the SDK's tracing interceptor; tune adjusts its configuration.
func newObservedStack(b *testing.B, metrics *telemetry.Metrics, tracing bool, tune ...func(*config.Config)) *stack {
	b.Helper()
	cfg := testenv.Config(b)
	for _, f := range tune {
		f(cfg)
	}
	store := testenv.Database(b)
	tc := testenv.ObservedTemporal(b, metrics, tracing)
	metrics.WatchPool(store.Pool)
	testenv.ObservedWorker(b, cfg, store, tc, metrics)
	baseURL := testenv.ObservedAPI(b, cfg, store, tc, metrics)
	seller := testenv.NewSeller(b, store, cfg, baseURL, "Benchmark Shop", testenv.Workstation())
	st := &stack{temporal: tc, store: store, client: seller.Client, apiURL: baseURL, product: seller.Product, metrics: metrics}
	// The first offer of a fresh namespace waits for the worker's first
	// polls and caches: time it apart, so the windows measure steady state.
	start := time.Now()
	if err := st.postOffer("/v1/offers", "warm-up", http.StatusCreated); err != nil {
		b.Fatalf("warm-up offer: %v", err)
	}
	fmt.Printf("first offer of the namespace (cold): %.0f ms\n", ms(time.Since(start)))
	// A deployment's offers table is not empty, and its statistics say so:
	// a few hundred offers more and fresh statistics before measuring, so
	// that a plan prepared now suits the thousands to come.
	for i := range warmOffers {
		if err := st.postOffer("/v1/offers", fmt.Sprintf("warm-up-%d", i), http.StatusCreated); err != nil {
			b.Fatalf("warm-up offer: %v", err)
		}
	}
	testenv.StandInForAutovacuum(b, store)
	return st
}

// warmOffers are the offers a stack creates before it is measured, beyond
// the first.
const warmOffers = 200

// postOffer posts an offer of one unit of the stack's product, with
// reference ref, to path (the creation or the validation of an offer) and
// returns an error unless the answer has the status want.
func (s *stack) postOffer(path, ref string, want int) error {
	status, body, err := s.client.Do(context.Background(), http.MethodPost, path, sellerclient.OfferPayload(ref, s.product, 1), nil)
	if err == nil && status != want {
		err = fmt.Errorf("POST %s: %d %s", path, status, body)
	}
	return err
}

// runFor calls op from workers goroutines until d has passed and returns
// the duration of every call that succeeded, and how long the run took.
func runFor(d time.Duration, workers int, op func(worker, i int) error) (latencies, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	results := make(chan latencies, workers)
	errs := make(chan error, workers)
	start := time.Now()
	for w := range workers {
		go func() {
			var mine latencies
			for i := 0; ctx.Err() == nil; i++ {
				t0 := time.Now()
				if err := op(w, i); err != nil {
					errs <- err
					break
				}
				mine = append(mine, time.Since(t0))
			}
			results <- mine
		}()
	}
	var all latencies
	for range workers {
		all = append(all, <-results...)
	}
	elapsed := time.Since(start)
	select {
	case err := <-errs:
		return all, elapsed, err
	default:
		return all, elapsed, nil
	}
}

// runAt calls op at a fixed arrival rate for d (an open loop: a slow answer
// does not slow the arrivals) and returns the duration of every call that
// succeeded, how long the run took and how many calls failed.
func runAt(rate int, d time.Duration, op func(i int) error) (latencies, time.Duration, int) {
	interval := time.Second / time.Duration(rate)
	var (
		mu       sync.Mutex
		got      latencies
		failures int
		wg       sync.WaitGroup
	)
	start := time.Now()
	for i := 0; i < int(d/interval); i++ {
		// Each call has its own time in the schedule: a late wake-up
		// sends the calls it missed at once, where a ticker drops them.
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		wg.Go(func() {
			t0 := time.Now()
			err := op(i)
			took := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failures++
				return
			}
			got = append(got, took)
		})
	}
	wg.Wait()
	return got, time.Since(start), failures
}

// latencies are durations of operations.
type latencies []time.Duration

func (l latencies) percentile(p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	sorted := slices.Clone(l)
	slices.Sort(sorted)
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// rate is how many operations a run of that length completed per second.
func (l latencies) rate(elapsed time.Duration) float64 {
	return float64(len(l)) / elapsed.Seconds()
}

// describe prints count, rate and latency percentiles of a run.
func (l latencies) describe(what string, elapsed time.Duration) string {
	return fmt.Sprintf("%s: %d in %.1f s = %.1f/s, p50 %.1f ms, p99 %.1f ms, max %.1f ms",
		what, len(l), elapsed.Seconds(), l.rate(elapsed), ms(l.percentile(0.5)), ms(l.percentile(0.99)), ms(l.percentile(1)))
}

// bareEntity is the least an entity workflow created by Update-With-Start
// can be: its creation update returns at once, and it waits for nothing.
func bareEntity(ctx workflow.Context) error {
	err := workflow.SetUpdateHandler(ctx, "create", func(workflow.Context) error { return nil })
	if err != nil {
		return err
	}
	return workflow.Await(ctx, func() bool { return false })
}

// bareEntities runs a worker for bare entity workflows on queue until the
// benchmark ends and returns an operation that creates one. asOffer starts
// each with the options an offer's workflow starts with, its three search
// attributes among them, so that what the server does beyond that for an
// offer shows.
func (s *stack) bareEntities(b *testing.B, queue string, asOffer bool) func(w, i int) error {
	s.runWorker(b, queue, "BareEntity", bareEntity)
	sellerID := uuid.New()
	return func(w, i int) error {
		ctx := context.Background()
		id := fmt.Sprintf("%s-%d-%d", queue, w, i)
		options := client.StartWorkflowOptions{ID: id, TaskQueue: queue, WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_FAIL}
		if asOffer {
			options = entity.StartOptions(id, queue, sellerID, string(offers.Created), id)
		}
		h, err := s.temporal.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
			StartWorkflowOperation: s.temporal.NewWithStartWorkflowOperation(options, "BareEntity"),
			UpdateOptions:          client.UpdateWorkflowOptions{UpdateName: "create", WaitForStage: client.WorkflowUpdateStageCompleted},
		})
		if err != nil {
			return err
		}
		return h.Get(ctx, nil)
	}
}

// runWorker runs a worker of one workflow on its own queue, polling like
// Tenure's entity workers, until the benchmark ends.
func (s *stack) runWorker(b *testing.B, queue, name string, wf any) {
	wk := worker.New(s.temporal, queue, workflows.EntityWorkerOptions)
	wk.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{Name: name})
	if err := wk.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(wk.Stop)
}

// emptyWorkflowQueue is the task queue of the empty workflows whose starts
// are the raw start rate.
const emptyWorkflowQueue = "empty-workflows"

// emptyWorkflow ends in its first workflow task: a start of it costs the
// server the start, the task and the completion, and nothing of Tenure's.
func emptyWorkflow(workflow.Context) error { return nil }

// startsOn returns an operation that starts an empty workflow on a queue;
// run tells the ids of one run from another's.
func (s *stack) startsOn(queue string, eager bool, run int) func(w, i int) error {
	return func(w, i int) error {
		_, err := s.temporal.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{
			ID: fmt.Sprintf("%s-%t-%d-%d-%d", queue, eager, run, w, i), TaskQueue: queue, EnableEagerStart: eager,
		}, "EmptyWorkflow")
		return err
	}
}

// rawStartRate starts empty workflows from 16 clients for the window, plain
// and then eager (run tells this call's workflow ids from another's), each time waiting until every one has completed, and
// returns the better rate, counted to the last completion: a start returns
// before its workflow runs, and the starts a worker has not run yet are a
// backlog, not a rate.
func (s *stack) rawStartRate(b *testing.B, run int) float64 {
	s.emptyWorker.Do(func() { s.runWorker(b, emptyWorkflowQueue, "EmptyWorkflow", emptyWorkflow) })
	var best float64
	for _, eager := range []bool{false, true} {
		start, cpu := time.Now(), readCPU(b)
		started, _, err := runFor(window, concurrency, s.startsOn(emptyWorkflowQueue, eager, run))
		if err != nil {
			b.Fatal(err)
		}
		s.awaitEmptyWorkflows(b)
		ran := time.Since(start)
		fmt.Println(started.describe(fmt.Sprintf("starts of an empty workflow (eager %t), rate to the last one's completion", eager), ran))
		fmt.Println("  " + readCPU(b).perOperation(cpu, len(started)))
		best = max(best, started.rate(ran))
	}
	return best
}

// awaitEmptyWorkflows waits until no empty workflow runs.
func (s *stack) awaitEmptyWorkflows(b *testing.B) {
	start := time.Now()
	running := &workflowservice.CountWorkflowExecutionsRequest{
		Query: fmt.Sprintf("TaskQueue = '%s' AND ExecutionStatus = 'Running'", emptyWorkflowQueue),
	}
	for time.Since(start) < 5*time.Minute {
		left, err := s.temporal.CountWorkflow(context.Background(), running)
		if err != nil {
			b.Fatal(err)
		}
		if left.Count == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.Fatal("empty workflows still running five minutes after their starts")
}
