package clustertest

import (
	"bytes"
	"context"
	_ "embed"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"text/template"
	"time"

	"go.temporal.io/sdk/client"
	temporallog "go.temporal.io/sdk/log"

	"github.com/tenurehq/tenure/cmd/tenure/temporalcli"
	"github.com/tenurehq/tenure/internal/testing/testenv"
)

// serverConfig is the server's configuration, a template of the run's
// databases and ports.
//
//go:embed temporal.yaml
var serverConfig string

var serverConfigTemplate = template.Must(template.New("temporal.yaml").
	Funcs(template.FuncMap{"quote": strconv.Quote}).Parse(serverConfig))

// serverPorts are the listeners of the server's four services.
type serverPorts struct {
	Frontend, FrontendHTTP, FrontendMembership int
	History, HistoryMembership                 int
	Matching, MatchingMembership               int
	Worker, WorkerMembership                   int
}

// temporalServer is the pinned Temporal server with its four services in
// one process, persisting to two fresh databases of the run.
type temporalServer struct {
	// Address is the frontend's host:port.
	Address string
	// CLI is the pinned Temporal CLI, which administers it.
	CLI     string
	process *process
}

// startTemporal builds the pinned server and schema tool unless they are
// in .tenure/bin, creates the history and visibility databases with the
// schema tool, and starts the server on free ports.
func startTemporal(t testing.TB, pg postgres, workDir string) *temporalServer {
	t.Helper()
	root, err := testenv.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	binDir := filepath.Join(root, ".tenure", "bin")
	began := time.Now()
	bins, err := temporalcli.InstallServer(t.Context(), binDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Temporal server and schema tool ready in %s (%s)", time.Since(began).Round(time.Millisecond), binDir)

	history, visibility := pg.name("temporal"), pg.name("temporal_visibility")
	for db, schema := range map[string]string{history: "postgresql/v12/temporal", visibility: "postgresql/v12/visibility"} {
		pg.dropAtEnd(t, db)
		for _, step := range [][]string{
			{"create-database"},
			{"setup-schema", "--version", "0.0"},
			{"update-schema", "--schema-name", schema},
		} {
			sqlTool(t, bins.SQLTool, pg, db, step...)
		}
	}

	ports := freePorts(t, 9)
	p := serverPorts{
		Frontend: ports[0], FrontendHTTP: ports[1], FrontendMembership: ports[2],
		History: ports[3], HistoryMembership: ports[4],
		Matching: ports[5], MatchingMembership: ports[6],
		Worker: ports[7], WorkerMembership: ports[8],
	}
	configDir := filepath.Join(workDir, "config")
	if err := os.MkdirAll(configDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var rendered bytes.Buffer
	err = serverConfigTemplate.Execute(&rendered, map[string]any{
		"Database": history, "Visibility": visibility,
		"Postgres": net.JoinHostPort(pg.host(), pg.port()), "User": pg.user(), "Password": pg.password(),
		"Ports": p,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(configDir, "cluster.yaml"), rendered.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &temporalServer{Address: net.JoinHostPort("127.0.0.1", strconv.Itoa(p.Frontend)), CLI: testenv.TemporalCLI(t)}
	s.process = start(t, "temporal-server", workDir, os.Environ(), bins.Server,
		"--root", workDir, "--config", "config", "--env", "cluster", "--allow-no-auth", "start")
	waitUntil(t, s.process, 2*time.Minute, func() error {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		c, err := client.DialContext(ctx, client.Options{HostPort: s.Address, Logger: temporallog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
		return err
	})
	return s
}

// sqlTool runs one command of the schema tool on a database of the run.
// The connection comes through the tool's environment variables, which
// keeps the password off the command line.
func sqlTool(t testing.TB, tool string, pg postgres, db string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), tool, append([]string{"--plugin", "postgres12"}, args...)...)
	cmd.Env = append(os.Environ(), "SQL_HOST="+pg.host(), "SQL_PORT="+pg.port(), "SQL_USER="+pg.user(),
		"SQL_PASSWORD="+pg.password(), "SQL_DATABASE="+db)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("temporal-sql-tool %v on %s: %v\n%s", args, db, err, out)
	}
}

// CreateNamespace registers a namespace with the Temporal CLI, as an
// operator would.
func (s *temporalServer) CreateNamespace(t testing.TB, namespace string) {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), s.CLI, "operator", "namespace", "create",
		"--namespace", namespace, "--retention", "24h", "--address", s.Address).CombinedOutput()
	if err != nil {
		t.Fatalf("temporal operator namespace create %s: %v\n%s", namespace, err, out)
	}
}

// freePorts returns n ports of 127.0.0.1 free at the time of the call,
// held together while they are chosen so that none repeats. They are
// below 32768, out of Linux's ephemeral range, because the server keeps
// its membership ports in a smallint column; a port the system hands out
// for ":0" is out of range there.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	ports := make([]int, 0, n)
	for tries := 0; len(ports) < n; tries++ {
		if tries == 1000 {
			t.Fatalf("found %d free ports between 20000 and 32767, wanted %d", len(ports), n)
		}
		port := 20000 + rand.IntN(32768-20000)
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue
		}
		defer ln.Close()
		ports = append(ports, port)
	}
	return ports
}
