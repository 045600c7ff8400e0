package offerbench_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/internal/sellerclient"
)

const (
	concurrency = 16
	window      = 20 * time.Second
)

// BenchmarkOfferCreation creates offers over HTTP (each an Update-With-
// Start of its workflow, which stores it) for 20 s, and in the same run
// measures how fast the same server starts workflows that do nothing.
func BenchmarkOfferCreation(b *testing.B) {
	s := newStack(b)
	raw, rawElapsed, err := runFor(window, concurrency, func(w, i int) error {
		_, err := s.temporal.ExecuteWorkflow(context.Background(), client.StartWorkflowOptions{
			ID: fmt.Sprintf("raw-start-%d-%d", w, i), TaskQueue: "raw-starts-nobody-polls",
			WorkflowIDReusePolicy: enums.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		}, "RawStart")
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	fmt.Println(raw.describe("raw workflow starts", rawElapsed))

	offers, elapsed, err := runFor(window, concurrency, func(w, i int) error {
		status, body, err := s.client.Do(context.Background(), http.MethodPost, "/v1/offers",
			sellerclient.OfferPayload(fmt.Sprintf("bench-%d-%d", w, i), s.product, 1), nil)
		if err == nil && status != http.StatusCreated {
			err = fmt.Errorf("create offer: %d %s", status, body)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	fmt.Println(offers.describe("offers created over HTTP", elapsed))
	rawRate := float64(len(raw)) / rawElapsed.Seconds()
	offerRate := float64(len(offers)) / elapsed.Seconds()
	fmt.Printf("offer creation rate / raw start rate: %.0f %%\n", 100*offerRate/rawRate)
	b.ReportMetric(offerRate, "offers/s")
	b.ReportMetric(ms(offers.percentile(0.99)), "p99-ms")
	b.ReportMetric(rawRate, "raw-starts/s")
}

// BenchmarkGetOffer reads offers at a fixed 1,000 requests per second for
// 10 s (an open loop: a slow answer does not slow the arrivals).
func BenchmarkGetOffer(b *testing.B) {
	s := newStack(b)
	var ids []string
	for i := range 100 {
		var o struct {
			ID string `json:"id"`
		}
		status, body, err := s.client.Do(context.Background(), http.MethodPost, "/v1/offers",
			sellerclient.OfferPayload(fmt.Sprintf("read-%d", i), s.product, 1), &o)
		if err != nil || status != http.StatusCreated {
			b.Fatalf("create offer: %d %s %v", status, body, err)
		}
		ids = append(ids, o.ID)
	}
	const rate, duration = 1000, 10 * time.Second
	ticker := time.NewTicker(time.Second / rate)
	defer ticker.Stop()
	var mu sync.Mutex
	var got latencies
	var failures int
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; time.Since(start) < duration; i++ {
		<-ticker.C
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			status, _, err := s.client.Do(context.Background(), http.MethodGet, "/v1/offers/"+ids[i%len(ids)], nil, nil)
			d := time.Since(t0)
			mu.Lock()
			defer mu.Unlock()
			if err != nil || status != http.StatusOK {
				failures++
				return
			}
			got = append(got, d)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	fmt.Println(got.describe("GET /v1/offers/{id} at a 1,000/s arrival rate", elapsed))
	if failures > 0 {
		b.Fatalf("%d reads failed", failures)
	}
	b.ReportMetric(ms(got.percentile(0.99)), "p99-ms")
	b.ReportMetric(float64(len(got))/elapsed.Seconds(), "req/s")
}

// BenchmarkLifecycles runs full lifecycles (create → review → accept →
// acknowledge → confirm → ship all → completed) for two minutes and reports
// the rate of each 20-second window: a steady rate means no backlog builds
// up. It then checks that no entity workflow is left running.
func BenchmarkLifecycles(b *testing.B) {
	s := newStack(b)
	const duration = 2 * time.Minute
	var mu sync.Mutex
	var finished []time.Time
	all, elapsed, err := runFor(duration, concurrency, func(w, i int) error {
		_, err := s.client.Run(context.Background(), fmt.Sprintf("life-%d-%d", w, i), s.product,
			[]string{fmt.Sprintf("SN-%d-%d", w, i)})
		mu.Lock()
		finished = append(finished, time.Now())
		mu.Unlock()
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	fmt.Println(all.describe("lifecycles", elapsed))
	start := finished[0].Add(-all.percentile(0.5))
	windows := map[int]int{}
	for _, t := range finished {
		windows[int(t.Sub(start)/window)]++
	}
	for w := range int(duration / window) {
		fmt.Printf("  %3d–%3d s: %.1f lifecycles/s\n", w*20, w*20+20, float64(windows[w])/window.Seconds())
	}
	var running int
	_ = s.store.Pool.QueryRow(context.Background(), "SELECT count(*) FROM offers WHERE status IN ('created', 'pending_review') AND seller_offer_reference <> 'warm-up'").Scan(&running)
	fmt.Printf("offers left created or under review: %d\n", running)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "lifecycles/s")
}
