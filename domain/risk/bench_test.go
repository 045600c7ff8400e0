package risk

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// fiftyRules is a rule set of 50 rules of the kinds credit teams write
// (amount bands, countries, legal forms, line scans, categories, seller
// limits, exposure), none of which matches the benchmark's snapshot, so
// every decision evaluates all 50 and falls to the default.
func fiftyRules() string {
	kinds := []string{
		`offer.total_net > %d`,
		`customer.country in ["US", "GB", "CN", "RU", "BR"] && offer.total_net > %d`,
		`customer.legal_form == "de_ug" && offer.total_gross > %d`,
		`offer.lines.exists(l, l.product_type == "software" && l.net > %d)`,
		`offer.lines.all(l, l.contract_type == "pay_now") && offer.total_net > %d`,
		`"Drones" in offer.categories && offer.total_net > %d`,
		`"max_offer_net" in seller.limits && offer.total_net > seller.limits.max_offer_net + %d`,
		`exposure.open_net + offer.total_net > %d`,
		`customer.vat_number == "" && customer.registration_number == "" && offer.total_net > %d`,
		`offer.sales_channel == "pos" && offer.lines.exists(l, l.quantity > 100) && offer.total_net > %d`,
	}
	var b strings.Builder
	b.WriteString("version: bench-50\nrules:\n")
	for i := range 50 {
		when := fmt.Sprintf(kinds[i%len(kinds)], 100_000_000+int64(i)*1000)
		fmt.Fprintf(&b, "  - id: rule-%02d\n    when: '%s'\n    outcome: %s\n    reason: %s\n", i, when, outcomes[i%len(outcomes)], reasonYAML)
	}
	b.WriteString("default: {outcome: accept, reason: " + reasonYAML + "}\n")
	return b.String()
}

// benchSnapshot is an offer of five lines by a German GmbH with some
// exposure, at a seller with a limit.
func benchSnapshot() Snapshot {
	snap := full
	snap.Offer.Lines = nil
	for i := range 5 {
		snap.Offer.Lines = append(snap.Offer.Lines, Line{ProductType: "hardware", PricingCategory: "hardware", Categories: []string{"Laptops"},
			Quantity: int64(i + 1), Net: 200_000, Gross: 238_000, ContractType: "rent", Duration: 36})
	}
	snap.Seller.Limits = map[string]int64{"max_offer_net": 5_000_000}
	return snap
}

// BenchmarkEvaluate50Rules evaluates a 50-rule set, compiled once, on one
// snapshot per operation, and reports the p50 and p99 of the operations'
// latencies besides Go's mean.
func BenchmarkEvaluate50Rules(b *testing.B) {
	rs, err := ParseRuleSet("bench.yaml", []byte(fiftyRules()))
	if err != nil {
		b.Fatal(err)
	}
	snap := benchSnapshot()
	if d := rs.Evaluate(snap); d.RuleID != DefaultRuleID || d.Error != "" {
		b.Fatalf("the benchmark's snapshot must fall through all 50 rules: %+v", d)
	}
	var latencies []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		rs.Evaluate(snap)
		latencies = append(latencies, time.Since(start))
	}
	b.ReportMetric(Percentile(latencies, 0.5), "p50-µs")
	b.ReportMetric(Percentile(latencies, 0.99), "p99-µs")
}

// Percentile is the q-quantile of latencies in microseconds (sorting
// them).
func Percentile(latencies []time.Duration, q float64) float64 {
	slices.Sort(latencies)
	return float64(latencies[int(q*float64(len(latencies)-1))].Nanoseconds()) / 1e3
}
