package telemetry

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"
)

// temporalMetrics are the Temporal SDK's metrics as series of the process's
// registry, one per metric name and label set. The SDK tags one metric
// differently at different call sites (temporal_request gains status_code
// on a failure, for one), so the label names of a metric vary: a vector with
// fixed label names, such as tally's Prometheus reporter registers, keeps
// the first label set and drops the others (sdk-go#1450). OpenTelemetry's
// exporter keeps them all but cost about four times the CPU per value
// (BenchmarkTemporalMetrics), paid on every workflow task, activity and
// frontend call.
type temporalMetrics struct {
	mu sync.RWMutex
	// series are the exported series by Prometheus name and label set.
	series map[seriesID]*temporalSeries
	// asked are the same series by what the SDK asks for (kind, its own
	// name, label set), so that recording builds no name.
	asked map[askedID]*temporalSeries
}

// seriesID names one series: its metric's name and its label set's key.
type seriesID struct{ name, labels string }

// askedID is a series as the SDK names it.
type askedID struct {
	kind         metricKind
	name, labels string
}

// temporalHelp is the help of every SDK metric: the SDK's documentation
// describes each.
const temporalHelp = "Recorded by the Temporal Go SDK (see its metrics reference)."

// Describe describes nothing: the collector is unchecked, because the
// label names of its metrics are not known in advance.
func (t *temporalMetrics) Describe(chan<- *prometheus.Desc) {}

// Collect sends every series recorded so far.
func (t *temporalMetrics) Collect(ch chan<- prometheus.Metric) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, s := range t.series {
		ch <- s.metric
	}
}

// metricKind is what the SDK asked for: a counter, a gauge or a timer.
type metricKind int

const (
	counterKind metricKind = iota
	gaugeKind
	timerKind
)

// kindSuffixes are the suffixes Prometheus's conventions give each kind's
// names: counters end in _total, timers are histograms in seconds.
var kindSuffixes = [...]string{counterKind: "_total", gaugeKind: "", timerKind: "_seconds"}

// temporalSeries is one series: the SDK's counter, gauge or timer, and the
// Prometheus metric behind it. It is all three interfaces, and records
// only as the kind it was created as, so that a name the SDK used before
// for another kind of metric records nothing rather than panicking in a
// worker.
type temporalSeries struct {
	metric    prometheus.Metric
	counter   prometheus.Counter
	gauge     prometheus.Gauge
	histogram prometheus.Histogram
}

// Inc adds n; a Prometheus counter never goes down, so a negative n is dropped.
func (s *temporalSeries) Inc(n int64) {
	if s.counter != nil && n > 0 {
		s.counter.Add(float64(n))
	}
}

// Update sets the gauge.
func (s *temporalSeries) Update(v float64) {
	if s.gauge != nil {
		s.gauge.Set(v)
	}
}

// Record observes a duration in seconds.
func (s *temporalSeries) Record(d time.Duration) {
	if s.histogram != nil {
		s.histogram.Observe(d.Seconds())
	}
}

// seriesOf returns the series of the SDK's metric name and tags, created
// the first time under the Prometheus name (with the kind's suffix); a
// Prometheus name taken by another kind keeps its first series.
func (t *temporalMetrics) seriesOf(kind metricKind, name string, tags tagSet) *temporalSeries {
	asked := askedID{kind, name, tags.key}
	t.mu.RLock()
	s, found := t.asked[asked]
	t.mu.RUnlock()
	if found {
		return s
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, found = t.asked[asked]; found {
		return s
	}
	name = withSuffix(name, kindSuffixes[kind])
	id := seriesID{name, tags.key}
	if s, found = t.series[id]; found {
		t.asked[asked] = s
		return s
	}
	s = &temporalSeries{}
	labels := tags.labels()
	switch kind {
	case counterKind:
		s.counter = prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: temporalHelp, ConstLabels: labels})
		s.metric = s.counter
	case gaugeKind:
		s.gauge = prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: temporalHelp, ConstLabels: labels})
		s.metric = s.gauge
	case timerKind:
		s.histogram = prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: temporalHelp, Buckets: latencyBuckets, ConstLabels: labels})
		s.metric = s.histogram
	}
	t.series[id], t.asked[asked] = s, s
	return s
}

// temporalHandler is the client.MetricsHandler the SDK records through: a
// label set, and the series it records into.
type temporalHandler struct {
	metrics *temporalMetrics
	tags    tagSet
}

// WithTags returns a handler whose label set adds tags to h's.
func (h temporalHandler) WithTags(tags map[string]string) client.MetricsHandler {
	return temporalHandler{metrics: h.metrics, tags: h.tags.with(tags)}
}

// Counter returns the counter name_total of h's label set.
func (h temporalHandler) Counter(name string) client.MetricsCounter {
	return h.metrics.seriesOf(counterKind, name, h.tags)
}

// Gauge returns the gauge name of h's label set.
func (h temporalHandler) Gauge(name string) client.MetricsGauge {
	return h.metrics.seriesOf(gaugeKind, name, h.tags)
}

// Timer returns the histogram name_seconds of h's label set, with the
// buckets of Tenure's own latencies.
func (h temporalHandler) Timer(name string) client.MetricsTimer {
	return h.metrics.seriesOf(timerKind, name, h.tags)
}

// withSuffix gives name the unit or type suffix Prometheus's conventions ask for.
func withSuffix(name, suffix string) string {
	if strings.HasSuffix(name, suffix) {
		return name
	}
	return name + suffix
}

// tagSet is a handler's labels, sorted by name, with a key that identifies
// them.
type tagSet struct {
	pairs []tagPair
	key   string
}

type tagPair struct{ name, value string }

// with returns the set with tags added, a tag of the same name replaced.
// Names are made valid label names and values valid UTF-8, so that no tag
// can make a scrape fail.
func (s tagSet) with(tags map[string]string) tagSet {
	pairs := make([]tagPair, len(s.pairs), len(s.pairs)+len(tags))
	copy(pairs, s.pairs)
	size := 0
next:
	for name, value := range tags {
		pair := tagPair{labelName(name), strings.ToValidUTF8(value, "\uFFFD")}
		for i := range pairs {
			if pairs[i].name == pair.name {
				pairs[i] = pair
				continue next
			}
		}
		pairs = append(pairs, pair)
	}
	slices.SortFunc(pairs, func(a, b tagPair) int { return strings.Compare(a.name, b.name) })
	for _, p := range pairs {
		size += len(p.name) + len(p.value) + 2
	}
	var key strings.Builder
	key.Grow(size)
	for _, p := range pairs {
		// \xff is no UTF-8 and, once valid, no name or value holds it.
		key.WriteString(p.name)
		key.WriteByte('\xff')
		key.WriteString(p.value)
		key.WriteByte('\xff')
	}
	return tagSet{pairs: pairs, key: key.String()}
}

// labels are the set as Prometheus labels.
func (s tagSet) labels() prometheus.Labels {
	labels := make(prometheus.Labels, len(s.pairs))
	for _, p := range s.pairs {
		labels[p.name] = p.value
	}
	return labels
}

// labelName makes name a valid Prometheus label name: letters, digits and
// underscores, not starting with a digit nor with the reserved "__", and
// not "le", which client_golang refuses (with a panic) on a histogram.
func labelName(name string) string {
	valid := name != "" && name != "le" && !strings.HasPrefix(name, "__") && (name[0] < '0' || name[0] > '9')
	for i := 0; valid && i < len(name); i++ {
		valid = labelByte(name[i])
	}
	if valid {
		return name
	}
	b := []byte("tag_" + name)
	for i, c := range b {
		if !labelByte(c) {
			b[i] = '_'
		}
	}
	return string(b)
}

// labelByte reports whether a label name may hold c.
func labelByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
