package offerbench_test

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tenurehq/tenure/foundation/telemetry"
)

// sdkTimings are the Temporal SDK's own timers as the stack's registry
// holds them: for each histogram series (its name and labels), the number
// of values and their sum in seconds.
type sdkTimings map[string]struct {
	count uint64
	sum   float64
}

// readSDKTimings gathers the SDK's histograms from the registry.
func readSDKTimings(m *telemetry.Metrics) sdkTimings {
	out := sdkTimings{}
	families, err := m.Registry.Gather()
	if err != nil {
		return out
	}
	for _, f := range families {
		if !strings.HasPrefix(f.GetName(), "temporal_") {
			continue
		}
		for _, series := range f.GetMetric() {
			h := series.GetHistogram()
			if h == nil {
				continue
			}
			var labels []string
			for _, l := range series.GetLabel() {
				if l.GetName() == "operation" || l.GetName() == "workflow_type" || l.GetName() == "activity_type" {
					labels = append(labels, l.GetValue())
				}
			}
			key := f.GetName()
			if len(labels) > 0 {
				key += "{" + strings.Join(labels, ",") + "}"
			}
			v := out[key]
			v.count += h.GetSampleCount()
			v.sum += h.GetSampleSum()
			out[key] = v
		}
	}
	return out
}

// describeSince lists the mean of every timer that recorded values since
// an earlier reading, with the number of values per operation of the run.
func (t sdkTimings) describeSince(before sdkTimings, operations int) string {
	var lines []string
	for key, now := range t {
		count := now.count - before[key].count
		if count == 0 {
			continue
		}
		mean := (now.sum - before[key].sum) / float64(count)
		lines = append(lines, fmt.Sprintf("  %-90s mean %7.2f ms, %.1f per operation", key, 1000*mean, float64(count)/float64(max(operations, 1))))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
