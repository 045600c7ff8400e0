package observetest

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// series are the samples of one scrape by metric name: counters and
// gauges by value, histograms by their count (as name_count), sum and
// buckets (name_bucket, by le).
type series map[string][]sample

// sample is one series' labels and value.
type sample struct {
	labels map[string]string
	value  float64
}

// scrape reads the admin listener's /metrics in the Prometheus text format.
func scrape(t *testing.T, adminURL string) series {
	t.Helper()
	status, body := get(t, adminURL+"/metrics")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", status, body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("/metrics is not the Prometheus text format: %v", err)
	}
	out := series{}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				out[name] = append(out[name], sample{labels, m.GetCounter().GetValue()})
			case dto.MetricType_GAUGE:
				out[name] = append(out[name], sample{labels, m.GetGauge().GetValue()})
			case dto.MetricType_HISTOGRAM:
				out[name+"_count"] = append(out[name+"_count"], sample{labels, float64(m.GetHistogram().GetSampleCount())})
				out[name+"_sum"] = append(out[name+"_sum"], sample{labels, m.GetHistogram().GetSampleSum()})
				for _, b := range m.GetHistogram().GetBucket() {
					le := map[string]string{"le": strconv.FormatFloat(b.GetUpperBound(), 'g', -1, 64)}
					for k, v := range labels {
						le[k] = v
					}
					out[name+"_bucket"] = append(out[name+"_bucket"], sample{le, float64(b.GetCumulativeCount())})
				}
			case dto.MetricType_UNTYPED:
				out[name] = append(out[name], sample{labels, m.GetUntyped().GetValue()})
			}
		}
	}
	return out
}

// sum adds the values of a metric's series that carry every label given.
func (s series) sum(name string, labels map[string]string) float64 {
	var total float64
	for _, smp := range s[name] {
		matches := true
		for k, v := range labels {
			matches = matches && smp.labels[k] == v
		}
		if matches {
			total += smp.value
		}
	}
	return total
}

// has reports whether a metric was exported at all.
func (s series) has(name string) bool { return len(s[name]) > 0 }
