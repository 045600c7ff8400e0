package telemetry

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Metrics are one process's metrics and the registry that exports them.
// Every method is safe on a nil *Metrics, which records nothing: tests and
// commands that export no metrics pass none.
type Metrics struct {
	// Registry is what the admin listener serves at /metrics.
	Registry *prometheus.Registry

	httpRequests    *prometheus.CounterVec
	httpDuration    *prometheus.HistogramVec
	transitions     *prometheus.CounterVec
	webhookAttempts *prometheus.CounterVec
	webhookLatency  prometheus.Histogram
	csvRows         *prometheus.CounterVec
}

// Unmatched is the operation label of requests that match no operation of
// the contracts (unknown paths, the checkout's pages, health checks): one
// fixed value, so that a caller cannot grow the label set.
const Unmatched = "unmatched"

// latencyBuckets suit requests and workflow tasks: 1 ms to 30 s.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// deliveryBuckets span a webhook's whole retry schedule: from an event
// delivered at once to one delivered on its last attempt three days later.
var deliveryBuckets = []float64{.05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 4 * 3600, 12 * 3600, 24 * 3600, 72 * 3600}

// NewMetrics creates the registry of one process with the Go runtime's and
// the process's collectors and Tenure's own metrics.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tenure_http_requests_total",
			Help: "HTTP requests answered, by the contract's operation id, method and status class (2xx, 4xx, ...).",
		}, []string{"operation", "method", "status_class"}),
		httpDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tenure_http_request_duration_seconds",
			Help:    "Time from a request's arrival to its answer, by the contract's operation id and method.",
			Buckets: latencyBuckets,
		}, []string{"operation", "method"}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tenure_transitions_total",
			Help: "Committed status changes of offers and orders, by entity and from/to status (from is none for a creation).",
		}, []string{"entity", "from", "to"}),
		webhookAttempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tenure_webhook_attempts_total",
			Help: "Webhook delivery attempts sent, by outcome (delivered, failed, gone) and error class (none when delivered).",
		}, []string{"outcome", "error_class"}),
		webhookLatency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "tenure_webhook_delivery_latency_seconds",
			Help:    "Time from the commit of an event to the 2xx of an endpoint, retries included.",
			Buckets: deliveryBuckets,
		}),
		csvRows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tenure_csv_rows_total",
			Help: "CSV import rows stored, by result (succeeded, failed).",
		}, []string{"result"}),
	}
	m.Registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.httpRequests, m.httpDuration, m.transitions, m.webhookAttempts, m.webhookLatency, m.csvRows,
	)
	return m
}

// HTTPRequest counts an answered request and its duration. operation is a
// contract's operation id or Unmatched, never a path.
func (m *Metrics) HTTPRequest(operation, method string, status int, took time.Duration) {
	if m == nil {
		return
	}
	m.httpRequests.WithLabelValues(operation, method, statusClass(status)).Inc()
	m.httpDuration.WithLabelValues(operation, method).Observe(took.Seconds())
}

// statusClasses are the label values of the status classes, without an
// allocation per request.
var statusClasses = [...]string{"1xx", "2xx", "3xx", "4xx", "5xx"}

func statusClass(status int) string {
	if i := status/100 - 1; i >= 0 && i < len(statusClasses) {
		return statusClasses[i]
	}
	return strconv.Itoa(status)
}

// Transition counts a committed status change of an offer or order; from
// is empty for a creation.
func (m *Metrics) Transition(entity, from, to string) {
	if m == nil {
		return
	}
	if from == "" {
		from = "none"
	}
	m.transitions.WithLabelValues(entity, from, to).Inc()
}

// WebhookAttempt counts an attempt that was sent; errorClass is empty when
// it was delivered.
func (m *Metrics) WebhookAttempt(outcome, errorClass string) {
	if m == nil {
		return
	}
	if errorClass == "" {
		errorClass = "none"
	}
	m.webhookAttempts.WithLabelValues(outcome, errorClass).Inc()
}

// WebhookDelivered observes how long an event took from its commit to an
// endpoint's 2xx.
func (m *Metrics) WebhookDelivered(sinceCommit time.Duration) {
	if m == nil {
		return
	}
	m.webhookLatency.Observe(sinceCommit.Seconds())
}

// CSVRows counts the rows of one committed chunk of a CSV import.
func (m *Metrics) CSVRows(succeeded, failed int) {
	if m == nil {
		return
	}
	m.csvRows.WithLabelValues("succeeded").Add(float64(succeeded))
	m.csvRows.WithLabelValues("failed").Add(float64(failed))
}
