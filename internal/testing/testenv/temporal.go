package testenv

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	temporallog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/tenurehq/tenure/cmd/tenure/temporalcli"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

var (
	devServerOnce sync.Once
	devServer     *testsuite.DevServer
	devServerErr  error
	namespaceSeq  atomic.Int64
)

// TemporalCLI is the pinned Temporal CLI: TENURE_DEV_TEMPORAL_CLI when set,
// else the repository's .tenure/bin/temporal, built there on first use.
func TemporalCLI(t testing.TB) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	path, err := temporalcli.Find(background(), os.Getenv("TENURE_DEV_TEMPORAL_CLI"), filepath.Join(root, ".tenure"))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TemporalAddress is the frontend of the package's dev server, started on
// first use and stopped by Main.
func TemporalAddress(t testing.TB) string {
	t.Helper()
	cli := TemporalCLI(t)
	devServerOnce.Do(func() {
		devServer, devServerErr = testsuite.StartDevServer(background(), testsuite.DevServerOptions{
			ExistingPath: cli,
			LogLevel:     "error",
			ExtraArgs:    temporalcli.Tuning,
			ClientOptions: &client.Options{
				Logger: Logger(),
			},
			Stdout: io.Discard,
			Stderr: io.Discard,
		})
		if devServerErr == nil {
			atExit(func() { _ = devServer.Stop() })
		}
	})
	if devServerErr != nil {
		t.Fatalf("starting the Temporal dev server (%s): %v", cli, devServerErr)
	}
	return devServer.FrontendHostPort()
}

// Temporal returns a client on a namespace of its own, so workers of other
// tests never take this test's tasks.
func Temporal(t testing.TB) client.Client {
	t.Helper()
	return ClientFor(t, Namespace(t))
}

// ClientFor returns a client on an existing namespace of the package's dev
// server, closed when the test ends.
func ClientFor(t testing.TB, ns string) client.Client {
	t.Helper()
	return ClientWith(t, ns, client.Options{})
}

// ClientWith is ClientFor with options of the test's own (a metrics
// handler, interceptors); the address, namespace and logger are the
// package's, the connection's options those of the default configuration.
func ClientWith(t testing.TB, ns string, opts client.Options) client.Client {
	t.Helper()
	opts.HostPort, opts.Namespace, opts.Logger = TemporalAddress(t), ns, Logger()
	opts.ConnectionOptions = workflows.ConnectionOptions(Config(t).Temporal)
	c, err := client.Dial(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// Namespace registers a fresh namespace on the package's dev server.
func Namespace(t testing.TB) string {
	t.Helper()
	ns := fmt.Sprintf("test-%d-%d", os.Getpid(), namespaceSeq.Add(1))
	nc, err := client.NewNamespaceClient(client.Options{HostPort: TemporalAddress(t), Logger: Logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	err = nc.Register(background(), &workflowservice.RegisterNamespaceRequest{
		Namespace:                        ns,
		WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour),
	})
	if err != nil {
		t.Fatalf("registering namespace %s: %v", ns, err)
	}
	// Search attributes are per namespace; a worker registers them in
	// production, here the namespace gets them at once.
	c, err := client.Dial(client.Options{HostPort: TemporalAddress(t), Namespace: ns, Logger: Logger()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := searchattr.Ensure(background(), c, ns); err != nil {
		t.Fatal(err)
	}
	return ns
}

// Logger is the quiet logger tests give Temporal clients: warnings and
// errors only.
func Logger() temporallog.Logger {
	return temporallog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
}
