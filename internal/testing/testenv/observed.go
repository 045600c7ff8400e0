package testenv

import (
	"context"
	"net"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/foundation/telemetry"
)

// ObservedTemporal is Temporal whose client counts the SDK's metrics into
// metrics (none when nil) and, when tracing, carries the SDK's tracing
// interceptor, as `tenure dev` configures it.
func ObservedTemporal(t testing.TB, metrics *telemetry.Metrics, tracing bool) client.Client {
	t.Helper()
	var opts client.Options
	if err := telemetry.TemporalOptions(&opts, metrics, tracing); err != nil {
		t.Fatal(err)
	}
	return ClientWith(t, Namespace(t), opts)
}

// ServeAdmin serves the admin listener (metrics and health checks) on a
// free port of 127.0.0.1 until the test ends and returns its base URL.
func ServeAdmin(t testing.TB, metrics *telemetry.Metrics, ready telemetry.Readiness) string {
	t.Helper()
	return ServeAdminAt(t, "127.0.0.1:0", metrics, ready)
}

// ServeAdminAt is ServeAdmin on addr, such as a port Prometheus scrapes.
func ServeAdminAt(t testing.TB, addr string, metrics *telemetry.Metrics, ready telemetry.Readiness) string {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("admin listener on %s: %v", addr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- telemetry.NewAdmin(metrics, ready, AppLogger()).Serve(ctx, ln) }()
	// Waited for, so the listener is closed when the test ends and a
	// shutdown that went wrong fails it.
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("admin listener: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}
