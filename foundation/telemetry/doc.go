// Package telemetry is how operators see inside Tenure: the Prometheus
// metrics of each process (its own registry, served with the health checks
// on the admin listener), the Temporal SDK's metrics recorded into that
// registry by a handler of its own, and OpenTelemetry tracing configured by
// the standard OTEL_* environment variables.
package telemetry
