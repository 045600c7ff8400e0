package offerbench_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"
)

// buildings is how many offers BenchmarkOfferBuilding builds.
const buildings = 2000

// BenchmarkOfferBuilding checks and prices offers one after another
// (POST /v1/offers/validate, which builds an offer as its creation does
// and creates nothing): what building an offer costs this process (the
// API and the client that calls it) and PostgreSQL, and how long a
// request takes, with Temporal out of the picture. One client at a time,
// so that the time per request shows the round trips to PostgreSQL.
func BenchmarkOfferBuilding(b *testing.B) {
	s := newStack(b)
	cpu, start := readCPU(b), time.Now()
	var took latencies
	for i := range buildings {
		t0 := time.Now()
		if err := s.postOffer("/v1/offers/validate", fmt.Sprintf("build-%d", i), http.StatusOK); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
	}
	elapsed, used := time.Since(start), readCPU(b)
	perBuild := func(d time.Duration) float64 { return float64(d.Microseconds()) / buildings }
	fmt.Println(took.describe("offers built (POST /v1/offers/validate), one at a time", elapsed))
	fmt.Printf("  CPU per offer built: this process %.0f µs + PostgreSQL %.0f µs\n", perBuild(used.self-cpu.self), perBuild(used.postgres-cpu.postgres))
	b.ReportMetric(perBuild(used.self-cpu.self), "process-µs/build")
	b.ReportMetric(perBuild(used.postgres-cpu.postgres), "postgres-µs/build")
	b.ReportMetric(float64(took.percentile(0.5).Microseconds()), "p50-µs")
}
