package telemetry

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// poolStat is one statistic of the PostgreSQL pool as a metric.
type poolStat struct {
	name, help string
	kind       prometheus.ValueType
	value      func(*pgxpool.Stat) float64
}

// poolStats are the pool's statistics the process exports.
var poolStats = []poolStat{
	{"tenure_db_pool_acquired_connections", "PostgreSQL connections in use.", prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.AcquiredConns()) }},
	{"tenure_db_pool_idle_connections", "PostgreSQL connections open and idle.", prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.IdleConns()) }},
	{"tenure_db_pool_total_connections", "PostgreSQL connections open (in use, idle or being opened).", prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.TotalConns()) }},
	{"tenure_db_pool_max_connections", "The pool's size (database.max_conns).", prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.MaxConns()) }},
	{"tenure_db_pool_constructing_connections", "PostgreSQL connections being opened.", prometheus.GaugeValue,
		func(s *pgxpool.Stat) float64 { return float64(s.ConstructingConns()) }},
	{"tenure_db_pool_acquires_total", "Connections taken from the pool.", prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.AcquireCount()) }},
	{"tenure_db_pool_empty_acquires_total", "Connections taken that had to wait for one (none idle).", prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.EmptyAcquireCount()) }},
	{"tenure_db_pool_canceled_acquires_total", "Waits for a connection given up (the request ended first).", prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return float64(s.CanceledAcquireCount()) }},
	{"tenure_db_pool_acquire_wait_seconds_total", "Time spent waiting for a connection.", prometheus.CounterValue,
		func(s *pgxpool.Stat) float64 { return s.AcquireDuration().Seconds() }},
}

// poolCollector reads the PostgreSQL pool's statistics at each scrape.
type poolCollector struct {
	pool  *pgxpool.Pool
	descs []*prometheus.Desc // one per poolStats entry
}

// WatchPool exports the statistics of the process's PostgreSQL pool.
func (m *Metrics) WatchPool(pool *pgxpool.Pool) {
	if m == nil {
		return
	}
	c := &poolCollector{pool: pool}
	for _, s := range poolStats {
		c.descs = append(c.descs, prometheus.NewDesc(s.name, s.help, nil, nil))
	}
	m.Registry.MustRegister(c)
}

// Describe sends the pool's metric descriptions.
func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect reads the pool's statistics now.
func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	stat := c.pool.Stat()
	for i, s := range poolStats {
		ch <- prometheus.MustNewConstMetric(c.descs[i], s.kind, s.value(stat))
	}
}
