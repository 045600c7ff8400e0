package telemetry

import (
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/opentelemetry"
)

// TemporalOptions completes the options of the process's Temporal client:
// the SDK's metrics (workflow task and activity latencies, failures, poller
// and slot counts) into m's registry when m is not nil, and, when tracing
// is on, the SDK's OpenTelemetry interceptor, which carries a trace from
// the client call into the workflow and its activities (workers built on
// the client inherit both). Call it once per registry: the SDK's metrics
// are registered in m's registry.
func TemporalOptions(opts *client.Options, m *Metrics, tracing bool) error {
	if m != nil {
		opts.MetricsHandler = m.temporalHandler()
	}
	if tracing {
		tracer, err := opentelemetry.NewTracingInterceptor(opentelemetry.TracerOptions{})
		if err != nil {
			return err
		}
		opts.Interceptors = append(opts.Interceptors, tracer)
	}
	return nil
}

// temporalHandler records the SDK's metrics into m's registry (see
// temporalMetrics): counters become temporal_*_total, timers
// temporal_*_seconds histograms with the buckets of Tenure's own.
func (m *Metrics) temporalHandler() client.MetricsHandler {
	series := &temporalMetrics{series: make(map[seriesID]*temporalSeries), asked: make(map[askedID]*temporalSeries)}
	m.Registry.MustRegister(series)
	return temporalHandler{metrics: series}
}
