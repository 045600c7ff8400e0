package telemetry

import (
	"log/slog"

	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/contrib/opentelemetry"
)

// TemporalOptions completes the options of the process's Temporal client:
// the SDK's metrics (workflow task and activity latencies, failures, poller
// and slot counts) into m's registry when m is not nil, and, when tracing
// is on, the SDK's OpenTelemetry interceptor, which carries a trace from
// the client call into the workflow and its activities (workers built on
// the client inherit both). Call it once per registry: the bridge
// registers its collector in m's registry.
func TemporalOptions(opts *client.Options, m *Metrics, tracing bool, logger *slog.Logger) error {
	if m != nil {
		handler, err := m.temporalHandler(logger)
		if err != nil {
			return err
		}
		opts.MetricsHandler = handler
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

// temporalHandler bridges the SDK's metrics into the registry through
// OpenTelemetry's Prometheus exporter: counters become temporal_*_total,
// timers temporal_*_seconds histograms with the buckets of Tenure's own.
func (m *Metrics) temporalHandler(logger *slog.Logger) (client.MetricsHandler, error) {
	exporter, err := otelprom.New(otelprom.WithRegisterer(m.Registry), otelprom.WithoutScopeInfo(), otelprom.WithoutTargetInfo())
	if err != nil {
		return nil, err
	}
	provider := sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter), sdkmetric.WithView(sdkmetric.NewView(
		sdkmetric.Instrument{Unit: "s"},
		sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{Boundaries: latencyBuckets}},
	)))
	return opentelemetry.NewMetricsHandler(opentelemetry.MetricsHandlerOptions{
		Meter:                provider.Meter("temporal-sdk-go"),
		UseMonotonicCounters: true,
		// The SDK's default panics; a metric that cannot be recorded is
		// not worth a worker.
		OnError: func(err error) { logger.Warn("cannot record a Temporal SDK metric", "error", err) },
	}), nil
}
