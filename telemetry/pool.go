package telemetry

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// poolCollector reads the PostgreSQL pool's statistics at each scrape.
type poolCollector struct {
	pool                                     *pgxpool.Pool
	acquired, idle, total, max, constructing *prometheus.Desc
	acquires, emptyAcquires, canceled        *prometheus.Desc
	acquireWait                              *prometheus.Desc
}

// WatchPool exports the statistics of the process's PostgreSQL pool.
func (m *Metrics) WatchPool(pool *pgxpool.Pool) {
	if m == nil {
		return
	}
	desc := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, nil, nil) }
	m.Registry.MustRegister(&poolCollector{
		pool:          pool,
		acquired:      desc("tenure_db_pool_acquired_connections", "PostgreSQL connections in use."),
		idle:          desc("tenure_db_pool_idle_connections", "PostgreSQL connections open and idle."),
		total:         desc("tenure_db_pool_total_connections", "PostgreSQL connections open (in use, idle or being opened)."),
		max:           desc("tenure_db_pool_max_connections", "The pool's size (database.max_conns)."),
		constructing:  desc("tenure_db_pool_constructing_connections", "PostgreSQL connections being opened."),
		acquires:      desc("tenure_db_pool_acquires_total", "Connections taken from the pool."),
		emptyAcquires: desc("tenure_db_pool_empty_acquires_total", "Connections taken that had to wait for one (none idle)."),
		canceled:      desc("tenure_db_pool_canceled_acquires_total", "Waits for a connection given up (the request ended first)."),
		acquireWait:   desc("tenure_db_pool_acquire_wait_seconds_total", "Time spent waiting for a connection."),
	})
}

// Describe sends the pool's metric descriptions.
func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.acquired, c.idle, c.total, c.max, c.constructing, c.acquires, c.emptyAcquires, c.canceled, c.acquireWait} {
		ch <- d
	}
}

// Collect reads the pool's statistics now.
func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	gauge(c.acquired, float64(s.AcquiredConns()))
	gauge(c.idle, float64(s.IdleConns()))
	gauge(c.total, float64(s.TotalConns()))
	gauge(c.max, float64(s.MaxConns()))
	gauge(c.constructing, float64(s.ConstructingConns()))
	counter(c.acquires, float64(s.AcquireCount()))
	counter(c.emptyAcquires, float64(s.EmptyAcquireCount()))
	counter(c.canceled, float64(s.CanceledAcquireCount()))
	counter(c.acquireWait, s.AcquireDuration().Seconds())
}
