package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/delivery"
)

// resumeGoal is how soon after a worker's death its webhook delivery must
// be under way again on another worker (issue 27); BenchmarkWebhookFailover
// reports against it.
const resumeGoal = 5 * time.Second

// resumeBound is what the test asserts: twice the goal, so a loaded
// machine does not fail it, while an attempt without its heartbeat (30 s
// until its start-to-close timeout) or one waiting for the dead worker's
// sticky queue and the schedule's 5 s does. The medians measured are
// 3.7 to 4.5 s (docs/performance.md).
const resumeBound = 2 * resumeGoal

// A worker killed (SIGKILL) while its delivery's request is held by the
// receiver: the attempt is retried on the second worker once its
// heartbeat stops, found interrupted, and the next attempt is sent at once
// instead of after the schedule's 5 s; it arrives within resumeBound of
// the kill, and the delivery is recorded with the interrupted attempt and
// the delivered one.
func TestWebhookDeliveryResumesAfterItsWorkerIsKilled(t *testing.T) {
	f := newFailover(t)
	took := f.round(t)
	t.Logf("the delivery resumed %s after its worker was killed (goal %s)", took.Round(time.Millisecond), resumeGoal)
	if took > resumeBound {
		t.Errorf("the delivery resumed %s after its worker was killed, want at most %s", took.Round(time.Millisecond), resumeBound)
	}
}

// BenchmarkWebhookFailover kills the worker of a held delivery five times
// per iteration, each time with a fresh second worker polling, and reports
// the median and the longest time from the kill to the next attempt's
// arrival.
func BenchmarkWebhookFailover(b *testing.B) {
	const kills = 5
	f := newFailover(b)
	var took []time.Duration
	for range b.N {
		for range kills {
			took = append(took, f.round(b))
		}
	}
	slices.Sort(took)
	median, longest := took[len(took)/2], took[len(took)-1]
	fmt.Printf("webhook failover: %d kills, resumed after %v (median %s, longest %s; goal %s)\n",
		len(took), took, median.Round(time.Millisecond), longest.Round(time.Millisecond), resumeGoal)
	b.ReportMetric(median.Seconds(), "s-to-resume-median")
	b.ReportMetric(longest.Seconds(), "s-to-resume-max")
}

// failover is a seller with an endpoint on a receiver that holds each
// event's first request and answers the next at once, served by `tenure
// worker` subprocesses with the standard retry schedule.
type failover struct {
	env        []string
	store      *db.Store
	temporal   client.Client
	dispatcher *webhook.Dispatcher
	seller     uuid.UUID
	endpoint   uuid.UUID
	// arrivals tells each request's webhook-id, attempt and arrival.
	arrivals chan arrival
	// worker is the one worker alive between rounds.
	worker *workerProcess
}

// arrival is a request reaching the receiver.
type arrival struct {
	id      string
	attempt int
	at      time.Time
}

func newFailover(tb testing.TB) *failover {
	tb.Helper()
	databaseURL := testenv.DatabaseURL(tb)
	namespace := testenv.Namespace(tb)
	cfg := testenv.Config(tb)
	f := &failover{
		env: append(os.Environ(),
			"TENURE_DATABASE_URL="+databaseURL,
			"TENURE_TEMPORAL_ADDRESS="+testenv.TemporalAddress(tb),
			"TENURE_TEMPORAL_NAMESPACE="+namespace,
			"TENURE_WEBHOOKS_SECRET_KEY="+cfg.Webhooks.SecretKey,
			"TENURE_LOG_LEVEL=warn",
		),
		store:    testenv.Connect(tb, databaseURL, 4),
		temporal: testenv.ClientFor(tb, namespace),
		arrivals: make(chan arrival, 16),
	}
	rcv := testenv.NewReceiver(tb, func(req *http.Request, attempt int) (int, time.Duration) {
		f.arrivals <- arrival{id: req.Header.Get("webhook-id"), attempt: attempt, at: time.Now()}
		if attempt == 1 {
			// Held until the worker that sent it dies and its connection closes.
			return http.StatusServiceUnavailable, 10 * time.Minute
		}
		return http.StatusOK, 0
	})
	seller, err := auth.CreateSeller(tb.Context(), f.store, "Failover Shop", "EUR")
	if err != nil {
		tb.Fatal(err)
	}
	f.seller = seller.Seller.ID
	endpoints, err := webhook.NewEndpoints(f.store, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ep, err := endpoints.Create(tb.Context(), f.seller, webhook.EndpointInput{URL: rcv.URL})
	if err != nil {
		tb.Fatal(err)
	}
	f.endpoint = ep.Endpoint.ID
	f.dispatcher = delivery.NewDispatcher(f.store, f.temporal, cfg.Webhooks)
	f.worker = startWorker(tb, f.env)
	return f
}

// round sends one event; once the receiver holds its first request it
// starts a second worker, waits until it polls, kills the first, and
// answers how long after the kill the next attempt arrived. It checks the
// delivery's record, and leaves the second worker as the one alive.
func (f *failover) round(tb testing.TB) time.Duration {
	tb.Helper()
	id := f.send(tb)
	first := f.arrival(tb, time.Minute)
	if first.id != id || first.attempt != 1 {
		tb.Fatalf("first request %+v, want attempt 1 of %s", first, id)
	}
	second := startWorker(tb, f.env)
	f.awaitPoller(tb, second)
	f.worker.kill(tb)
	killed := time.Now()
	f.worker = second

	next := f.arrival(tb, time.Minute)
	if next.id != id || next.attempt != 2 {
		tb.Fatalf("after the kill %+v, want attempt 2 of %s", next, id)
	}
	f.awaitRecorded(tb, uuid.MustParse(id), []string{"interrupted", "delivered"})
	return next.at.Sub(killed)
}

// send records an event and dispatches it, as a change's activity does.
func (f *failover) send(tb testing.TB) string {
	tb.Helper()
	var id uuid.UUID
	err := f.store.InTx(tb.Context(), func(q *dbgen.Queries) error {
		object := uuid.Must(uuid.NewV7())
		var err error
		id, err = webhook.Record(tb.Context(), q, webhook.NewEvent{SellerID: f.seller, Type: webhook.OrderCreated, ObjectID: object,
			Payload: json.RawMessage(fmt.Sprintf(`{"id":"%s","status":"created"}`, object))})
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if err := f.dispatcher.Dispatch(tb.Context(), id); err != nil {
		tb.Fatal(err)
	}
	return id.String()
}

// arrival is the receiver's next request, waited for at most timeout.
func (f *failover) arrival(tb testing.TB, timeout time.Duration) arrival {
	tb.Helper()
	select {
	case a := <-f.arrivals:
		return a
	case <-time.After(timeout):
		tb.Fatalf("no request reached the receiver within %s", timeout)
		return arrival{}
	}
}

// awaitPoller waits until a worker process polls the webhooks' activity
// queue (the SDK's identity starts with its process id).
func (f *failover) awaitPoller(tb testing.TB, w *workerProcess) {
	tb.Helper()
	prefix := strconv.Itoa(w.cmd.Process.Pid) + "@"
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := f.temporal.DescribeTaskQueue(tb.Context(), delivery.TaskQueue, enums.TASK_QUEUE_TYPE_ACTIVITY)
		if err != nil {
			tb.Fatal(err)
		}
		for _, p := range resp.GetPollers() {
			if strings.HasPrefix(p.GetIdentity(), prefix) {
				return
			}
		}
		if time.Now().After(deadline) {
			tb.Fatalf("worker %d does not poll %s; its output:\n%s", w.cmd.Process.Pid, delivery.TaskQueue, w.output)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// awaitRecorded waits until an event's delivery is settled as delivered
// with its attempts' outcomes as want says, in order.
func (f *failover) awaitRecorded(tb testing.TB, eventID uuid.UUID, want []string) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var status string
		var outcomes []string
		err := f.store.Pool.QueryRow(context.Background(), `
			SELECT d.status, coalesce((SELECT array_agg(a.outcome ORDER BY a.attempt) FROM webhook_attempts a
			                           WHERE a.event_id = d.event_id AND a.endpoint_id = d.endpoint_id), '{}')
			FROM webhook_deliveries d WHERE d.event_id = $1 AND d.endpoint_id = $2`, eventID, f.endpoint).Scan(&status, &outcomes)
		if err != nil {
			tb.Fatal(err)
		}
		if status == webhook.DeliveryDelivered && slices.Equal(outcomes, want) {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("delivery of %s: %s with attempts %v, want delivered with %v", eventID, status, outcomes, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
