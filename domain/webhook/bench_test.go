package webhook_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// benchEvents is how many events each webhook benchmark sends.
const benchEvents = 1000

// benchRates are the steady rates, in events per second, the latency
// benchmark commits at.
var benchRates = []int{20, 50}

// emitAll records and dispatches n events from several goroutines at most
// rate per second (0: as fast as possible), each dispatched right after its
// commit as offers and orders will. It returns each event's commit time.
func (s *stack) emitAll(b testing.TB, n int, rate float64) map[string]time.Time {
	committed := make(map[string]time.Time, n)
	var mu sync.Mutex
	var wg sync.WaitGroup
	jobs := make(chan struct{})
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				id := s.record(b, webhook.OrderCreated)
				at := time.Now()
				if err := s.dispatcher.Dispatch(b.Context(), id); err != nil {
					b.Error(err)
				}
				mu.Lock()
				committed[id.String()] = at
				mu.Unlock()
			}
		}()
	}
	start := time.Now()
	for i := range n {
		if rate > 0 {
			time.Sleep(time.Until(start.Add(time.Duration(float64(i) / rate * float64(time.Second)))))
		}
		jobs <- struct{}{}
	}
	close(jobs)
	wg.Wait()
	return committed
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	return sorted[int(float64(len(sorted)-1)*p)]
}

// BenchmarkWebhookLatency measures, over 1,000 events committed at a
// steady rate, the time from an event's commit to its arrival at a local
// receiver, through the real stack: PostgreSQL, the Temporal dev server and
// Tenure's worker. Run it with make bench-webhooks.
func BenchmarkWebhookLatency(b *testing.B) {
	for _, rate := range benchRates {
		b.Run(fmt.Sprintf("%d-per-second", rate), func(b *testing.B) {
			for range b.N {
				benchLatency(b, rate)
			}
		})
	}
}

func benchLatency(b *testing.B, rate int) {
	s := newStack(b)
	s.worker(b)
	rcv := testenv.NewReceiver(b, testenv.Always(http.StatusOK))
	s.endpoint(b, rcv.URL)
	b.ResetTimer()
	committed := s.emitAll(b, benchEvents, float64(rate))
	rcv.WaitDelivered(b, benchEvents, 5*time.Minute)
	b.StopTimer()
	var latencies []time.Duration
	for _, r := range rcv.Requests() {
		if at, ok := committed[r.ID]; ok && r.Status == http.StatusOK {
			latencies = append(latencies, r.At.Sub(at))
		}
	}
	slices.Sort(latencies)
	p50, p99, worst := percentile(latencies, 0.50), percentile(latencies, 0.99), latencies[len(latencies)-1]
	fmt.Printf("webhook latency, commit to receipt, %d events at %d/s: p50 %v, p99 %v, max %v\n",
		len(latencies), rate, p50.Round(time.Millisecond), p99.Round(time.Millisecond), worst.Round(time.Millisecond))
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
}

// BenchmarkWebhookRetries sends 1,000 events as fast as they can be
// committed to an endpoint that answers 500 to the first two attempts of
// each and 200 to the third, with the retry schedule compressed to 0 s, 1 s,
// 2 s (the Standard Webhooks schedule would take 5 min 5 s per event).
func BenchmarkWebhookRetries(b *testing.B) {
	for range b.N {
		s := newStack(b, func(c *config.Config) {
			c.Webhooks.RetrySchedule = []time.Duration{0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}
		})
		s.worker(b)
		rcv := testenv.NewReceiver(b, func(_ *http.Request, attempt int) (int, time.Duration) {
			if attempt <= 2 {
				return http.StatusInternalServerError, 0
			}
			return http.StatusOK, 0
		})
		ep := s.endpoint(b, rcv.URL)
		b.ResetTimer()
		start := time.Now()
		committed := s.emitAll(b, benchEvents, 0)
		rcv.WaitDelivered(b, benchEvents, 10*time.Minute)
		elapsed := time.Since(start)
		b.StopTimer()
		var attempts, delivered int
		deadline := time.Now().Add(time.Minute)
		for delivered < benchEvents && time.Now().Before(deadline) {
			_ = s.store.Pool.QueryRow(b.Context(), "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'", ep.Endpoint.ID).Scan(&delivered)
			time.Sleep(100 * time.Millisecond)
		}
		_ = s.store.Pool.QueryRow(b.Context(), "SELECT count(*) FROM webhook_attempts WHERE outcome <> 'sending'").Scan(&attempts)
		if len(committed) != benchEvents || delivered != benchEvents || attempts != 3*benchEvents {
			b.Errorf("%d events, %d delivered, %d attempts recorded (want %d)", len(committed), delivered, attempts, 3*benchEvents)
		}
		fmt.Printf("webhook retries, %d events answered 500, 500, 200 (schedule 0s,1s,2s,...): all delivered in %v, "+
			"%d attempts recorded, %.0f events/s, %.0f attempts/s, %d requests received\n",
			delivered, elapsed.Round(time.Millisecond), attempts, float64(benchEvents)/elapsed.Seconds(),
			float64(attempts)/elapsed.Seconds(), len(rcv.Requests()))
		b.ReportMetric(float64(benchEvents)/elapsed.Seconds(), "events/s")
	}
}
