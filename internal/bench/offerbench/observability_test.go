package offerbench_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
	"go.opentelemetry.io/otel/trace/noop"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/tenurehq/tenure/foundation/telemetry"
)

// costWindow and costRounds: each variant creates offers for costWindow,
// the variants taking turns, costRounds times (an odd number, for a true
// median), so that the load of a shared machine falls on all of them alike.
const (
	costWindow = 10 * time.Second
	costRounds = 7
)

// BenchmarkObservabilityCost measures what metrics and tracing cost offer
// creation, side by side in one run: three stacks on the same Temporal
// server and PostgreSQL, one without metrics or tracing (as a process
// without an admin listener or OTEL_* variables), one with metrics (its
// registry scraped every 10 s, the Temporal SDK's metrics recorded into it), one
// with metrics and every request traced (sampled at 100 %, the Temporal
// interceptor on, batches exported over OTLP/HTTP to a collector stub on
// 127.0.0.1 that decodes them and counts the spans). 16 clients create
// offers as fast as they can; the variants take turns for 10 s each, seven
// rounds, each round starting with the next variant. The cost is the drop
// in offers per second against the variant without, and the rise in this
// process's CPU time per offer (the Temporal server and PostgreSQL not
// counted), each per round and their medians. On a shared machine these
// paired figures move by several percent from round to round, so the run
// also profiles the process with each stack's goroutines labelled by its
// variant and reports the share of each stack's CPU that is spent in the
// code recording and exporting metrics or traces: a figure the other
// stacks and the machine's load do not move.
func BenchmarkObservabilityCost(b *testing.B) {
	collector := newCollectorStub(b)
	exporter, err := otlptracehttp.New(b.Context(), otlptracehttp.WithEndpointURL(collector.url+"/v1/traces"))
	if err != nil {
		b.Fatal(err)
	}
	const traced = "metrics + traces (100 %)"
	var sdk *sdktrace.TracerProvider
	// The batcher's goroutine exports the traced variant's spans.
	labelled(traced, "", func() {
		sdk = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	})
	b.Cleanup(func() { _ = sdk.Shutdown(context.Background()) })
	tracing := &switchedTracing{sdk: sdk, off: noop.NewTracerProvider()}
	telemetry.UseTracerProvider(tracing)

	type variant struct {
		name    string
		stack   *stack
		metrics *telemetry.Metrics
		traced  bool
		rates   []float64
		// cpu is the benchmark process's CPU time per offer created.
		cpu []time.Duration
	}
	variants := []*variant{{name: "off"}, {name: "metrics", metrics: telemetry.NewMetrics()},
		{name: traced, metrics: telemetry.NewMetrics(), traced: true}}
	for _, v := range variants {
		labelled(v.name, "", func() { v.stack = newObservedStack(b, v.metrics, v.traced) })
	}
	stopAttribution := attribution(b)
	for round := range costRounds {
		// Each round starts with another variant, so that none always
		// follows the same one.
		order := append(slices.Clone(variants[round%len(variants):]), variants[:round%len(variants)]...)
		for _, v := range order {
			tracing.on.Store(v.traced)
			var stopScraping func()
			labelled(v.name, "", func() { stopScraping = scrapeEvery(v.metrics, 10*time.Second) })
			cpuBefore := processCPU(b)
			var (
				got     latencies
				elapsed time.Duration
				err     error
			)
			labelled(v.name, clientRole, func() {
				got, elapsed, err = runFor(costWindow, concurrency, func(w, i int) error {
					return v.stack.postOffer("/v1/offers", fmt.Sprintf("cost-%d-%d-%d", round, w, i), http.StatusCreated)
				})
			})
			cpu := processCPU(b) - cpuBefore
			stopScraping()
			if err != nil {
				b.Fatal(err)
			}
			v.rates = append(v.rates, got.rate(elapsed))
			v.cpu = append(v.cpu, cpu/time.Duration(max(1, len(got))))
			fmt.Printf("round %d, %s: %s, %.0f µs of this process's CPU per offer\n",
				round+1, v.name, got.describe("offers", elapsed), float64(v.cpu[round].Microseconds()))
		}
	}
	tracing.on.Store(false)
	if err := sdk.ForceFlush(context.Background()); err != nil {
		b.Fatal(err)
	}
	shares := stopAttribution()

	// Each round's variants ran back to back, so a cost is taken per round
	// (against that round's run without) and the median over the rounds
	// reported: drift of the machine's load between rounds cancels out.
	off := variants[0]
	rateCost := func(v *variant, r int) float64 { return 100 * (off.rates[r] - v.rates[r]) / off.rates[r] }
	cpuCost := func(v *variant, r int) float64 { return 100 * float64(v.cpu[r]-off.cpu[r]) / float64(off.cpu[r]) }
	medianCost := func(v *variant, cost func(*variant, int) float64) (float64, []string) {
		var costs []float64
		var shown []string
		for r := range v.rates {
			costs = append(costs, cost(v, r))
			shown = append(shown, fmt.Sprintf("%+.1f %%", cost(v, r)))
		}
		return median(costs), shown
	}
	for _, v := range variants[1:] {
		rate, rates := medianCost(v, rateCost)
		cpu, cpus := medianCost(v, cpuCost)
		fmt.Printf("%s against off, per round: rate %v, CPU per offer %v; medians: rate %+.1f %%, CPU per offer %+.1f %%\n",
			v.name, rates, cpus, rate, cpu)
	}
	fmt.Printf("spans the collector stub received: %d in %d OTLP requests\n", collector.spans.Load(), collector.requests.Load())
	if collector.spans.Load() == 0 {
		b.Fatal("the collector stub received no span: the traced variant exported nothing")
	}
	// The profile's attribution: how much of each stack's own CPU (the
	// clients' not counted) was in the code that records and exports
	// metrics, or traces. Unlike the paired runs, the other stacks and
	// the machine's load do not move it.
	for _, v := range variants {
		if share := shares[v.name]; share != nil && share.stack > 0 {
			fmt.Printf("%s: %.1f s of the stack's CPU profiled, %.1f %% of it recording and exporting metrics, %.1f %% tracing\n",
				v.name, float64(share.stack)/1e9, 100*float64(share.metrics)/float64(share.stack), 100*float64(share.tracing)/float64(share.stack))
		}
	}
	if share := shares["metrics"]; share != nil && share.stack > 0 {
		b.ReportMetric(100*float64(share.metrics)/float64(share.stack), "metrics-code-cpu-%")
	}
	if share := shares[traced]; share != nil && share.stack > 0 {
		b.ReportMetric(100*float64(share.either)/float64(share.stack), "metrics+tracing-code-cpu-%")
	}
	for _, v := range variants[1:] {
		prefix := strings.Fields(v.name)[0]
		if v.traced {
			prefix = "tracing"
		}
		rate, _ := medianCost(v, rateCost)
		cpu, _ := medianCost(v, cpuCost)
		b.ReportMetric(rate, prefix+"-rate-cost-%")
		b.ReportMetric(cpu, prefix+"-cpu-cost-%")
	}
}

func median(values []float64) float64 {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	return sorted[len(sorted)/2]
}

// scrapeEvery gathers the registry as Prometheus would, until stopped;
// nothing when there are no metrics.
func scrapeEvery(m *telemetry.Metrics, interval time.Duration) (stop func()) {
	if m == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		ticker := time.NewTicker(interval)
		defer ticker.Stop()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				_, _ = m.Registry.Gather()
			}
		}
	}()
	return func() { close(done) }
}

// switchedTracing is the process's tracer provider during the benchmark:
// the SDK's while the traced variant runs, OpenTelemetry's no-op one
// otherwise, because the instrumentation (HTTP, SQL, webhook attempts)
// takes its tracers from the global provider once, for every stack.
type switchedTracing struct {
	embedded.TracerProvider
	on       atomic.Bool
	sdk, off trace.TracerProvider
}

// Tracer returns a tracer that follows the switch.
func (s *switchedTracing) Tracer(name string, opts ...trace.TracerOption) trace.Tracer {
	return &switchedTracer{switched: s, sdk: s.sdk.Tracer(name, opts...), off: s.off.Tracer(name, opts...)}
}

type switchedTracer struct {
	embedded.Tracer
	switched *switchedTracing
	sdk, off trace.Tracer
}

// Start starts a span with the tracer the switch selects.
func (t *switchedTracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	if t.switched.on.Load() {
		return t.sdk.Start(ctx, name, opts...)
	}
	return t.off.Start(ctx, name, opts...)
}

// collectorStub is an OTLP/HTTP trace receiver on 127.0.0.1 that decodes
// each export and counts its spans.
type collectorStub struct {
	url             string
	spans, requests atomic.Int64
}

func newCollectorStub(b *testing.B) *collectorStub {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	c := &collectorStub{url: "http://" + ln.Addr().String()}
	server := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var export coltrace.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &export)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.requests.Add(1)
		for _, rs := range export.GetResourceSpans() {
			for _, ss := range rs.GetScopeSpans() {
				c.spans.Add(int64(len(ss.GetSpans())))
			}
		}
		reply, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(reply)
	})}
	go func() { _ = server.Serve(ln) }()
	b.Cleanup(func() { _ = server.Close() })
	return c
}
