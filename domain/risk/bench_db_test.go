package risk_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/risk"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// benchDecisions is how many logged decisions BenchmarkBacktest replays:
// 100,000, or TENURE_BENCH_RISK_DECISIONS.
func benchDecisions(b *testing.B) int {
	n := 100_000
	if v := os.Getenv("TENURE_BENCH_RISK_DECISIONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("TENURE_BENCH_RISK_DECISIONS=%q is not a positive number", v)
		}
	}
	return n
}

// BenchmarkBacktest replays a decision log of 100,000 decisions (of the
// last 20 days, amounts and companies varied) through the 50-rule set, as
// `tenure risk backtest --since 30d` does, and reports how long it took.
func BenchmarkBacktest(b *testing.B) {
	n := benchDecisions(b)
	store := testenv.Database(b)
	ctx := b.Context()
	seller, err := auth.CreateSeller(ctx, store, "Backtest Shop", "EUR")
	if err != nil {
		b.Fatal(err)
	}
	snapshot, err := json.Marshal(risk.BenchSnapshot())
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if _, err := store.Pool.Exec(ctx, `
INSERT INTO offers (id, seller_id, seller_offer_reference, status, sales_channel, document, expires_at)
SELECT gen_random_uuid(), $1, 'backtest-' || g, 'accepted', 'ecommerce', '{}', now() + interval '1 day'
FROM generate_series(1, $2::int) g`, seller.Seller.ID, n); err != nil {
		b.Fatal(err)
	}
	if _, err := store.Pool.Exec(ctx, `
INSERT INTO risk_decisions (id, offer_id, seller_id, snapshot_version, snapshot, company_keys, currency, reserved_net,
                            rule_set_version, outcome, rule_id, reason, decided_at)
SELECT gen_random_uuid(), o.id, o.seller_id, 1,
       jsonb_set($2::jsonb, '{offer,total_net}', to_jsonb((random() * 300000000)::bigint)),
       ARRAY['vat:DE' || (random() * 5000)::int], 'EUR', 0, 'live-1', 'accept', 'default',
       '{"code":"ok","en":"OK.","de":"OK.","nl":"OK."}', now() - random() * interval '20 days'
FROM offers o WHERE o.seller_id = $1`, seller.Seller.ID, snapshot); err != nil {
		b.Fatal(err)
	}
	fmt.Printf("logged %d decisions in %s\n", n, time.Since(start).Round(time.Millisecond))
	rs, err := risk.ParseRuleSet("bench.yaml", []byte(risk.FiftyRules()))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		start := time.Now()
		report, err := risk.BacktestRuleSet(ctx, store.Queries, rs, time.Now().Add(-30*24*time.Hour))
		if err != nil {
			b.Fatal(err)
		}
		took := time.Since(start)
		if report.Decisions != n {
			b.Fatalf("replayed %d decisions of %d", report.Decisions, n)
		}
		if err := report.Write(io.Discard, 100); err != nil {
			b.Fatal(err)
		}
		fmt.Printf("backtest of %d decisions through 50 rules: %s (%d flips)\n", n, took.Round(time.Millisecond), len(report.Flips))
		b.ReportMetric(took.Seconds(), "s/backtest")
	}
}

// BenchmarkExposureCheck decides offers under review at a fixed 20 a
// second for 10 s, each in its own transaction as the offer workflow's
// review does (lock the company, read its exposure, evaluate, log and
// reserve), for offers of one company (every decision waits for the one
// before and sums a growing exposure) and of a company each, and reports
// the p99 of the decisions' transactions in both cases.
func BenchmarkExposureCheck(b *testing.B) {
	const rate, seconds = 20, 10
	rules := `version: bench-exposure
rules:
  - {id: cap, when: "exposure.open_net + offer.total_net > 100000000000", outcome: decline, reason: {code: cap, en: "C.", de: "C.", nl: "C."}}
default: {outcome: accept, reason: {code: ok, en: "OK.", de: "OK.", nl: "OK."}}
`
	for b.Loop() {
		p99 := map[string]float64{}
		for _, variant := range []string{"one company", "a company each"} {
			s := newLogStack(b, rules, "")
			candidates := make([]offers.Stored, rate*seconds)
			for i := range candidates {
				vat := "DE100000000"
				if variant == "a company each" {
					vat = fmt.Sprintf("DE%09d", i)
				}
				candidates[i] = s.offer(b, 500_000, vat)
			}
			latencies := make([]time.Duration, len(candidates))
			var wg sync.WaitGroup
			tick := time.NewTicker(time.Second / rate)
			for i, o := range candidates {
				<-tick.C
				wg.Go(func() {
					start := time.Now()
					err := s.store.InTx(b.Context(), func(q *dbgen.Queries) error {
						_, _, err := risk.Decide(b.Context(), q, s.policy, o)
						return err
					})
					latencies[i] = time.Since(start)
					if err != nil {
						b.Error(err)
					}
				})
			}
			tick.Stop()
			wg.Wait()
			p99[variant] = risk.Percentile(latencies, 0.99) / 1e3
			fmt.Printf("%d decisions at %d/s, %s: p50 %.1f ms, p99 %.1f ms\n", len(latencies), rate, variant,
				risk.Percentile(latencies, 0.5)/1e3, p99[variant])
		}
		b.ReportMetric(p99["one company"], "p99-ms-one-company")
		b.ReportMetric(p99["a company each"], "p99-ms-company-each")
	}
}
