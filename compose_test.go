package tenure

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"gopkg.in/yaml.v3"
)

func loadCompose(t *testing.T, env ...string) (*types.Project, error) {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{"docker-compose.yml"},
		cli.WithWorkingDirectory("."),
		cli.WithEnv(env),
		cli.WithResolvedPaths(true),
	)
	if err != nil {
		t.Fatal(err)
	}
	return opts.LoadProject(context.Background())
}

var composeSecrets = []string{
	"TENURE_AUTH_SIGNING_KEY=" + strings.Repeat("a", 64),
	"TENURE_LINKS_SIGNING_KEY=" + strings.Repeat("b", 64),
	"TENURE_WEBHOOKS_SECRET_KEY=" + strings.Repeat("c", 64),
	"TENURE_MANDATES_IBAN_KEYS=key-1:" + strings.Repeat("A", 43) + "=",
}

func TestComposeTopology(t *testing.T) {
	p, err := loadCompose(t, composeSecrets...)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"postgres", "temporal", "temporal-ui", "tenure-migrate", "tenure-api", "tenure-worker"} {
		if _, err := p.GetService(name); err != nil {
			t.Errorf("service %s is missing", name)
		}
	}
	svc := func(name string) types.ServiceConfig {
		s, err := p.GetService(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	env := func(s types.ServiceConfig, key string) string {
		v := s.Environment[key]
		if v == nil {
			t.Errorf("%s does not set %s", s.Name, key)
			return ""
		}
		return *v
	}

	// Temporal persists to the compose PostgreSQL.
	temporal := svc("temporal")
	if env(temporal, "DB") != "postgres12" || env(temporal, "POSTGRES_SEEDS") != "postgres" {
		t.Errorf("temporal does not persist to the postgres service: %v", temporal.Environment)
	}
	if temporal.DependsOn["postgres"].Condition != types.ServiceConditionHealthy {
		t.Error("temporal starts before postgres is healthy")
	}
	if ui := svc("temporal-ui"); env(ui, "TEMPORAL_ADDRESS") != "temporal:7233" {
		t.Error("the UI does not talk to the temporal service")
	}

	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	commands := map[string][]string{"tenure-migrate": {"migrate"}, "tenure-api": {"serve"}, "tenure-worker": {"worker"}}
	for name, command := range commands {
		s := svc(name)
		if s.Build == nil || s.Build.Context != root || s.Build.Dockerfile != "Dockerfile" {
			t.Errorf("%s is not built from the repository's Dockerfile: %+v", name, s.Build)
		}
		if !slices.Equal(s.Command, command) {
			t.Errorf("%s runs %v, want %v", name, s.Command, command)
		}
		if got := env(s, "TENURE_DATABASE_URL"); !strings.Contains(got, "@postgres:5432/") {
			t.Errorf("%s's database is %q, not the postgres service", name, got)
		}
		if got := env(s, "TENURE_AUTH_SIGNING_KEY"); got != strings.Repeat("a", 64) {
			t.Errorf("%s does not take the signing key from the environment", name)
		}
	}
	for _, name := range []string{"tenure-api", "tenure-worker"} {
		s := svc(name)
		if got := env(s, "TENURE_WEBHOOKS_SECRET_KEY"); got != strings.Repeat("c", 64) {
			t.Errorf("%s does not take the webhook secret key from the environment", name)
		}
		if got := env(s, "TENURE_TEMPORAL_ADDRESS"); got != "temporal:7233" {
			t.Errorf("%s's Temporal is %q", name, got)
		}
		if s.DependsOn["tenure-migrate"].Condition != types.ServiceConditionCompletedSuccessfully {
			t.Errorf("%s starts before the migrations completed", name)
		}
		if s.DependsOn["temporal"].Condition != types.ServiceConditionHealthy {
			t.Errorf("%s starts before Temporal is healthy", name)
		}
		// The API stores uploads where the worker reads them.
		if got := env(s, "TENURE_CATALOG_IMPORTS_BLOB_URL"); got != "file:///var/lib/tenure/blobs" {
			t.Errorf("%s's blob store is %q", name, got)
		}
		if len(s.Volumes) != 1 || s.Volumes[0].Source != "tenure-blobs" || s.Volumes[0].Target != "/var/lib/tenure/blobs" {
			t.Errorf("%s does not mount the shared blob volume: %+v", name, s.Volumes)
		}
	}
	api := svc("tenure-api")
	if env(api, "TENURE_HTTP_ADDR") != "0.0.0.0:8080" || len(api.Ports) != 1 || api.Ports[0].Target != 8080 {
		t.Errorf("the API does not listen where its port is published: %v %+v", api.Environment["TENURE_HTTP_ADDR"], api.Ports)
	}
	if migrate := svc("tenure-migrate"); migrate.DependsOn["postgres"].Condition != types.ServiceConditionHealthy {
		t.Error("migrations run before postgres is healthy")
	}
}

func TestComposeDemandsSecrets(t *testing.T) {
	_, err := loadCompose(t)
	if err == nil || !strings.Contains(err.Error(), "TENURE_AUTH_SIGNING_KEY") {
		t.Errorf("compose without secrets must say which is missing, got %v", err)
	}
}

// Prometheus scrapes the admin listener of every API and worker container,
// on the port they listen on, without publishing it; Grafana gets the
// Prometheus data source and the dashboard of deploy/grafana.
func TestComposeObservability(t *testing.T) {
	p, err := loadCompose(t, composeSecrets...)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("deploy/prometheus/prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	var prom struct {
		ScrapeConfigs []struct {
			JobName      string `yaml:"job_name"`
			DNSSDConfigs []struct {
				Names []string `yaml:"names"`
				Port  int      `yaml:"port"`
			} `yaml:"dns_sd_configs"`
		} `yaml:"scrape_configs"`
	}
	if err := yaml.Unmarshal(raw, &prom); err != nil {
		t.Fatal(err)
	}
	scraped := map[string]int{}
	for _, sc := range prom.ScrapeConfigs {
		for _, sd := range sc.DNSSDConfigs {
			for _, name := range sd.Names {
				scraped[name] = sd.Port
			}
		}
	}
	for _, name := range []string{"tenure-api", "tenure-worker"} {
		s, err := p.GetService(name)
		if err != nil {
			t.Fatal(err)
		}
		addr := s.Environment["TENURE_HTTP_ADMIN_ADDR"]
		if addr == nil {
			t.Errorf("%s has no admin listener", name)
			continue
		}
		_, port, _ := net.SplitHostPort(*addr)
		if want := strconv.Itoa(scraped[name]); port != want {
			t.Errorf("%s's admin listener is %s, Prometheus scrapes port %s", name, *addr, want)
		}
		for _, published := range s.Ports {
			if strconv.Itoa(int(published.Target)) == port {
				t.Errorf("%s publishes its admin port %s", name, port)
			}
		}
	}
	mounts := func(service, source, target string) {
		t.Helper()
		s, err := p.GetService(service)
		if err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(source)
		if !slices.ContainsFunc(s.Volumes, func(v types.ServiceVolumeConfig) bool { return v.Source == abs && v.Target == target }) {
			t.Errorf("%s does not mount %s at %s: %+v", service, source, target, s.Volumes)
		}
	}
	mounts("prometheus", "deploy/prometheus/prometheus.yml", "/etc/prometheus/prometheus.yml")
	mounts("grafana", "deploy/grafana/provisioning", "/etc/grafana/provisioning")
	mounts("grafana", "deploy/grafana/dashboards", "/var/lib/grafana/dashboards")
	raw, err = os.ReadFile("deploy/grafana/provisioning/dashboards/tenure.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "path: /var/lib/grafana/dashboards") {
		t.Error("the dashboard provider does not read the mounted dashboards")
	}
	raw, err = os.ReadFile("deploy/grafana/provisioning/datasources/prometheus.yml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "uid: prometheus") || !strings.Contains(string(raw), "url: http://prometheus:9090") {
		t.Error("the data source is not the compose Prometheus under the uid the dashboard names")
	}
}
