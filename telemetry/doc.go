// Package telemetry is how operators see inside Tenure: the Prometheus
// metrics of each process (its own registry, served with the health checks
// on the admin listener), the Temporal SDK's metrics bridged into that
// registry, and OpenTelemetry tracing configured by the standard OTEL_*
// environment variables.
package telemetry
