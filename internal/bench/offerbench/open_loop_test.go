package offerbench_test

import (
	"fmt"
	"testing"
	"time"
)

// measureAt runs op at a fixed arrival rate for d (runAt), prints the run
// as described, fails the benchmark if any of its calls (named by what)
// failed, and reports its p99 latency.
func measureAt(b *testing.B, described, what string, rate int, d time.Duration, op func(i int) error) (latencies, time.Duration) {
	b.Helper()
	got, elapsed, failures := runAt(rate, d, op)
	fmt.Println(got.describe(described, elapsed))
	if failures > 0 {
		b.Fatalf("%d %s failed", failures, what)
	}
	b.ReportMetric(ms(got.percentile(0.99)), "p99-ms")
	return got, elapsed
}
