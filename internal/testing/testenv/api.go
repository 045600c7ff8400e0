package testenv

import (
	"net"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/services"
)

// API serves Tenure's HTTP API on a free port of 127.0.0.1 until the test
// ends and returns its base URL.
func API(t testing.TB, cfg *config.Config, store *db.Store, c client.Client) string {
	t.Helper()
	return ObservedAPI(t, cfg, store, c, nil)
}

// ObservedAPI is API counting into metrics (none when nil).
func ObservedAPI(t testing.TB, cfg *config.Config, store *db.Store, c client.Client, metrics *telemetry.Metrics) string {
	t.Helper()
	return ServeAPI(t, api.Deps{Config: cfg, Services: Services(t, cfg, store, c),
		Tokens: auth.NewTokens(cfg.Auth.SigningKey, cfg.Auth.TokenTTL), Logger: AppLogger(), Metrics: metrics})
}

// Services are the services of a configuration over a store and a
// Temporal client, as tenure serve builds them.
func Services(t testing.TB, cfg *config.Config, store *db.Store, c client.Client) *services.Services {
	t.Helper()
	s, err := services.New(cfg, store, c, AppLogger())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ServeAPI is API with the dependencies given, such as a metrics registry.
func ServeAPI(t testing.TB, d api.Deps) string {
	t.Helper()
	app, err := api.New(d)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	// Bounded: a connection a client opened but never sent a request on
	// would hold a plain Shutdown until the read timeout (minutes, for
	// uploads).
	t.Cleanup(func() { _ = app.ShutdownWithTimeout(5 * time.Second) })
	return "http://" + ln.Addr().String()
}
