package observetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// dashboard is what the test reads of a Grafana dashboard: its panels'
// queries, rows included.
type dashboard struct {
	Panels []dashboardPanel `json:"panels"`
}

type dashboardPanel struct {
	Title   string `json:"title"`
	Targets []struct {
		Expr string `json:"expr"`
	} `json:"targets"`
	Panels []dashboardPanel `json:"panels"`
}

// queries lists every PromQL expression of the dashboard by panel title.
func (d dashboard) queries() map[string][]string {
	out := map[string][]string{}
	var walk func([]dashboardPanel)
	walk = func(panels []dashboardPanel) {
		for _, p := range panels {
			for _, target := range p.Targets {
				out[p.Title] = append(out[p.Title], target.Expr)
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	return out
}

var (
	// Label matchers, ranges, grouping clauses and strings hold no metric
	// names; they are removed before the names are read.
	promqlLabels   = regexp.MustCompile(`\{[^}]*\}`)
	promqlRanges   = regexp.MustCompile(`\[[^\]]*\]`)
	promqlGrouping = regexp.MustCompile(`\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`)
	promqlStrings  = regexp.MustCompile(`"[^"]*"`)
	// An identifier followed by a parenthesis is a function or aggregation.
	promqlIdentifier = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*\s*\(?`)
	promqlKeywords   = []string{"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset"}
)

// metricNames are the metric names a PromQL expression reads.
func metricNames(expr string) []string {
	expr = promqlStrings.ReplaceAllString(expr, " ")
	expr = promqlLabels.ReplaceAllString(expr, " ")
	expr = promqlRanges.ReplaceAllString(expr, " ")
	expr = promqlGrouping.ReplaceAllString(expr, " ")
	var names []string
	for _, m := range promqlIdentifier.FindAllString(expr, -1) {
		if strings.HasSuffix(m, "(") {
			continue
		}
		if m = strings.TrimSpace(m); !slices.Contains(promqlKeywords, m) {
			names = append(names, m)
		}
	}
	return names
}

func TestMetricNamesOfPromQL(t *testing.T) {
	got := metricNames(`histogram_quantile(0.95, sum by (le, operation) (rate(tenure_http_request_duration_seconds_bucket{status_class=~"4xx|5xx"}[$__rate_interval]))) / on (job) max(up)`)
	if want := []string{"tenure_http_request_duration_seconds_bucket", "up"}; !slices.Equal(got, want) {
		t.Errorf("metric names %v, want %v", got, want)
	}
}

// TestDashboardQueriesExportedMetrics reads every PromQL query of the
// Grafana dashboard and checks that each metric it names is one Tenure
// exports: a scrape of the admin listener after real operations (an offer
// to an order with its webhooks, a CSV import and a rejected one) has it.
func TestDashboardQueriesExportedMetrics(t *testing.T) {
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "deploy", "grafana", "dashboards", "tenure.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("the dashboard is not JSON: %v", err)
	}

	s := newStack(t, false)
	s.offerToOrder(t, "dashboard-1")
	s.receiver.WaitDelivered(t, 3, time.Minute)
	s.importCSV(t)
	s.rejectedCSV(t)
	exported := scrape(t, s.adminURL)

	queried := 0
	for title, exprs := range d.queries() {
		for _, expr := range exprs {
			names := metricNames(expr)
			if len(names) == 0 {
				t.Errorf("panel %q: no metric in %s", title, expr)
			}
			for _, name := range names {
				queried++
				if !exported.has(name) {
					t.Errorf("panel %q queries %s, which Tenure does not export", title, name)
				}
			}
		}
	}
	if queried < 20 {
		t.Errorf("the dashboard queries %d metrics; its panels were not read", queried)
	}
}

// rejectedCSV uploads a file without the required columns and waits until
// its job failed (its processing activity fails for good).
func (s *stack) rejectedCSV(t *testing.T) {
	t.Helper()
	body := "colour,size\nred,large\n"
	id, err := s.client.ImportCSV(t.Context(), "broken.csv", strings.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	s.awaitImport(t, id, "failed")
}
