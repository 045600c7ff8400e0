package offerbench_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// The profile labels of the observability benchmark: each stack's
// goroutines carry its variant (goroutines inherit the labels of the one
// that starts them), and the clients that load it carry the client role
// besides, so that a stack's CPU is the API's and the worker's alone.
const (
	variantLabel = "variant"
	roleLabel    = "role"
	clientRole   = "client"
)

// labelled runs f with the profile labels of a variant (and a role when
// not empty); goroutines f starts keep them.
func labelled(variant, role string, f func()) {
	labels := []string{variantLabel, variant}
	if role != "" {
		labels = append(labels, roleLabel, role)
	}
	pprof.Do(context.Background(), pprof.Labels(labels...), func(context.Context) { f() })
}

// metricsCode and tracingCode are the packages and types whose frames count
// as recording and exporting metrics, or traces: a sample with such a frame
// on its stack is CPU that variant spends on them. The Temporal SDK's
// metrics wrappers and Tenure's own telemetry package and statement tracer
// are among them (their paths must follow the code when it moves: a stale
// one counted nothing). None of them calls back into the work it observes;
// the tracing interceptor's wrappers, which do, are left out and only its
// span work (*tracingInterceptor) counted.
var (
	metricsCode = []string{"github.com/prometheus/client_golang/", "github.com/tenurehq/tenure/foundation/telemetry.",
		"go.temporal.io/sdk/internal/common/metrics."}
	tracingCode = []string{"go.opentelemetry.io/otel/sdk/", "go.opentelemetry.io/otel/exporters/", "github.com/exaring/otelpgx.",
		"github.com/tenurehq/tenure/db.(*statementTracer).", "go.temporal.io/sdk/contrib/opentelemetry.",
		"go.temporal.io/sdk/interceptor.(*tracingInterceptor)."}
)

// cpuShares is a variant's CPU in a profile: its stack's (clients not
// counted), the part of it in metrics code, in tracing code and in either.
type cpuShares struct{ stack, metrics, tracing, either int64 }

// attribution profiles the process's CPU until stop, which returns each
// variant's shares; nil when a CPU profile was already running (go test
// -cpuprofile), since a process has only one.
func attribution(b *testing.B) (stop func() map[string]*cpuShares) {
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		fmt.Printf("CPU not attributed to code: %v\n", err)
		return func() map[string]*cpuShares { return nil }
	}
	return func() map[string]*cpuShares {
		pprof.StopCPUProfile()
		p, err := profile.Parse(&buf)
		if err != nil {
			b.Fatalf("parsing the CPU profile: %v", err)
		}
		shares := make(map[string]*cpuShares)
		for _, s := range p.Sample {
			variant := s.Label[variantLabel]
			if len(variant) == 0 || len(s.Label[roleLabel]) > 0 {
				continue
			}
			share := shares[variant[0]]
			if share == nil {
				share = &cpuShares{}
				shares[variant[0]] = share
			}
			cpu := s.Value[1]
			share.stack += cpu
			inMetrics, inTracing := onStack(s, metricsCode), onStack(s, tracingCode)
			if inMetrics {
				share.metrics += cpu
			}
			if inTracing {
				share.tracing += cpu
			}
			if inMetrics || inTracing {
				share.either += cpu
			}
		}
		return shares
	}
}

// onStack reports whether a frame of the sample is in one of the packages.
func onStack(s *profile.Sample, packages []string) bool {
	for _, loc := range s.Location {
		for _, line := range loc.Line {
			for _, p := range packages {
				if strings.HasPrefix(line.Function.Name, p) {
					return true
				}
			}
		}
	}
	return false
}
