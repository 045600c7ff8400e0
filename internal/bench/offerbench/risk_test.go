package offerbench_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/internal/testing/customerclient"
)

// exposureCapRules cap a company's exposure far above what the benchmark
// asks for: every offer is accepted, after its company's exposure was
// locked, summed and reserved.
const exposureCapRules = `version: bench-exposure
rules:
  - id: exposure-cap
    when: exposure.open_net + offer.total_net > 100000000000
    outcome: decline
    reason: {code: exposure_limit, en: "Too much open.", de: "Zu viel offen.", nl: "Te veel open."}
default: {outcome: accept, reason: {code: ok, en: "OK.", de: "OK.", nl: "OK."}}
`

// inProduction runs the stack as production with the exposure rules and
// no identity verification.
func inProduction(b *testing.B) func(*config.Config) {
	rules := filepath.Join(b.TempDir(), "rules.yaml")
	if err := os.WriteFile(rules, []byte(exposureCapRules), 0o600); err != nil {
		b.Fatal(err)
	}
	return func(c *config.Config) {
		c.Environment = config.Production
		c.Risk.RulesFile = rules
		c.Risk.AutoAcceptAmount = 100_000_000
		c.IDV.AmountThreshold = 100_000_000
	}
}

// BenchmarkAcceptToDecision accepts 300 prepared offers at a fixed 20 per
// second in production and measures each from the acceptance's request to
// the risk rules' acceptance taking effect (seen by polling PostgreSQL
// every 5 ms): once with every offer of one company, whose decisions
// queue on its lock and sum its growing exposure, and once with a company
// per offer. The difference of the p99s is what the exposure check under
// contention adds.
func BenchmarkAcceptToDecision(b *testing.B) {
	const rate, seconds = 20, 15
	for b.Loop() {
		p99 := map[string]time.Duration{}
		for _, variant := range []string{"one company", "a company each"} {
			s := newStack(b, withoutAddressLimit, inProduction(b))
			customers := s.customers(b, "decide", rate*seconds)
			prepared := make([]time.Time, len(customers))
			for i, c := range customers {
				if variant == "a company each" {
					c.AsCompany(fmt.Sprintf("Kunde %d GmbH", i), fmt.Sprintf("DE%09d", i), fmt.Sprintf("HRB %d", i))
				}
				var err error
				if prepared[i], err = c.Prepare(context.Background(), customerclient.Choice{Months: 24, Services: true}); err != nil {
					b.Fatal(err)
				}
			}
			decided := s.watchAccepted(b)
			var mu sync.Mutex
			sent := map[string]time.Time{}
			got, elapsed, failures := runAt(rate, seconds*time.Second, func(i int) error {
				mu.Lock()
				sent[customers[i].OfferID()] = time.Now()
				mu.Unlock()
				_, err := customers[i].Accept(context.Background(), prepared[i], "")
				return err
			})
			if failures > 0 || len(got) != len(customers) {
				b.Fatalf("%s: %d acceptances failed", variant, failures)
			}
			times := decided(len(customers))
			var toDecision latencies
			for id, at := range sent {
				toDecision = append(toDecision, times[id].Sub(at))
			}
			fmt.Println(toDecision.describe(fmt.Sprintf("acceptance to the rules' acceptance at %d/s, %s", rate, variant), elapsed))
			p99[variant] = toDecision.percentile(0.99)
		}
		fmt.Printf("the exposure check under contention adds %.1f ms to the p99\n", ms(p99["one company"]-p99["a company each"]))
		b.ReportMetric(ms(p99["one company"]), "p99-ms-one-company")
		b.ReportMetric(ms(p99["a company each"]), "p99-ms-company-each")
	}
}

// watchAccepted polls the stack's offers every 5 ms for accepted ones and
// answers a wait for n of them, which returns when each was first seen.
func (s *stack) watchAccepted(b *testing.B) func(n int) map[string]time.Time {
	seen := map[string]time.Time{}
	var mu sync.Mutex
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			rows, err := s.store.Pool.Query(ctx, `SELECT id FROM offers WHERE status = 'accepted'`)
			if err == nil {
				now := time.Now()
				mu.Lock()
				for rows.Next() {
					var id uuid.UUID
					if rows.Scan(&id) == nil {
						if _, ok := seen[id.String()]; !ok {
							seen[id.String()] = now
						}
					}
				}
				mu.Unlock()
				rows.Close()
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return func(n int) map[string]time.Time {
		defer func() { stop(); <-done }()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			mu.Lock()
			count := len(seen)
			mu.Unlock()
			if count >= n {
				return seen
			}
			if time.Now().After(deadline) {
				b.Fatalf("only %d of %d offers were accepted", count, n)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}
