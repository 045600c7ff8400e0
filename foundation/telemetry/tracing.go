package telemetry

import (
	"context"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// tracingRequested reports whether the standard OTEL_* variables ask for
// traces: OTEL_TRACES_EXPORTER=otlp, or an OTLP endpoint
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) while
// OTEL_TRACES_EXPORTER is unset. OTEL_SDK_DISABLED=true and
// OTEL_TRACES_EXPORTER=none turn tracing off whatever else is set.
func tracingRequested() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	switch exporter := strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")); exporter {
	case "otlp":
		return true
	case "":
		return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
	default:
		return false
	}
}

// Tracing is the process's OpenTelemetry tracer provider, exporting over
// OTLP as the OTEL_* variables configure it (endpoint, protocol, headers,
// sampler, batch sizes, resource attributes).
type Tracing struct {
	provider *sdktrace.TracerProvider
}

// StartTracing installs the OTLP tracer provider as the process's global
// one when tracingRequested; otherwise it returns nil and the global
// provider stays OpenTelemetry's no-op one, which the instrumentation
// (HTTP, SQL, webhook attempts) costs next to nothing with.
func StartTracing(ctx context.Context, service string) (*Tracing, error) {
	if !tracingRequested() {
		return nil, nil
	}
	exporter, err := otlpExporter(ctx)
	if err != nil {
		return nil, err
	}
	// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name.
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", service)),
		resource.WithTelemetrySDK(), resource.WithHost(), resource.WithFromEnv())
	if err != nil {
		return nil, fmt.Errorf("OpenTelemetry resource (OTEL_RESOURCE_ATTRIBUTES): %w", err)
	}
	provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	UseTracerProvider(provider)
	return &Tracing{provider: provider}, nil
}

// otlpExporter speaks the protocol OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or
// OTEL_EXPORTER_OTLP_PROTOCOL names: http/protobuf (the specification's
// default) or grpc. The exporters read the endpoint, headers, timeout and
// TLS variables themselves.
func otlpExporter(ctx context.Context) (sdktrace.SpanExporter, error) {
	protocol := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if protocol == "" {
		protocol = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	switch protocol {
	case "", "http/protobuf":
		return otlptracehttp.New(ctx)
	case "grpc":
		return otlptracegrpc.New(ctx)
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL %q is not supported: use http/protobuf or grpc", protocol)
	}
}

// UseTracerProvider makes provider the process's global tracer provider,
// with W3C trace context and baggage as the propagators.
func UseTracerProvider(provider trace.TracerProvider) {
	otel.SetTracerProvider(provider)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
}

// Shutdown exports the spans still buffered and stops the provider.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.provider.Shutdown(ctx)
}
