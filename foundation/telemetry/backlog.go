package telemetry

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Backlog is a gauge read from the database at each scrape: a count per
// value of one label (the CSV imports per status), or a single count when
// the label is empty.
type Backlog struct {
	Name, Help string
	// Label names the keys Count returns; empty for a single count under "".
	Label string
	// Count reads the current counts.
	Count func(ctx context.Context) (map[string]int64, error)
}

// backlogTimeout bounds a scrape's query: a slow database leaves the gauge
// out of that scrape instead of holding the scrape up.
const backlogTimeout = 2 * time.Second

type backlogCollector struct {
	backlog Backlog
	desc    *prometheus.Desc
	logger  *slog.Logger
}

// WatchBacklog exports a gauge read from the database at each scrape.
// Only the worker processes export them, so that a sum over the processes
// of one deployment is not needed (take the max over them).
func (m *Metrics) WatchBacklog(b Backlog, logger *slog.Logger) {
	if m == nil {
		return
	}
	var labels []string
	if b.Label != "" {
		labels = []string{b.Label}
	}
	m.Registry.MustRegister(&backlogCollector{backlog: b, desc: prometheus.NewDesc(b.Name, b.Help, labels, nil), logger: logger})
}

// Describe sends the gauge's description.
func (c *backlogCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect runs the count; a failure is logged and the gauge left out.
func (c *backlogCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), backlogTimeout)
	defer cancel()
	counts, err := c.backlog.Count(ctx)
	if err != nil {
		c.logger.Warn("cannot read a metric from the database", "metric", c.backlog.Name, "error", err)
		return
	}
	for key, n := range counts {
		var values []string
		if c.backlog.Label != "" {
			values = []string{key}
		}
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), values...)
	}
}
