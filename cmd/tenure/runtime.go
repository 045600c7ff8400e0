package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"go.temporal.io/sdk/client"
	temporallog "go.temporal.io/sdk/log"

	"github.com/tenurehq/tenure/cmd/tenure/temporalcli"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/workflows"
)

// loadConfig reads and validates the configuration parts a command needs.
func loadConfig(file string, need config.Need) (*config.Config, error) {
	cfg, err := config.Load(file)
	if err != nil {
		return nil, err
	}
	return cfg, cfg.Validate(need)
}

func newLogger(cfg *config.Config) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "text" {
		return slog.New(slog.NewTextHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, opts))
}

// openStore connects to PostgreSQL.
func openStore(ctx context.Context, cfg *config.Config) (*db.Store, error) {
	pool, err := db.Connect(ctx, cfg.Database.URL, cfg.Database.MaxConns)
	if err != nil {
		return nil, err
	}
	return db.NewStore(pool), nil
}

// dialTemporal connects to the Temporal frontend and checks it answers.
// The client carries the process's observability: the SDK's metrics and
// its tracing interceptor, which the workers built on it inherit.
func dialTemporal(ctx context.Context, cfg *config.Config, logger *slog.Logger, obs observability) (client.Client, error) {
	opts := client.Options{
		HostPort:          cfg.Temporal.Address,
		Namespace:         cfg.Temporal.Namespace,
		Logger:            temporallog.NewStructuredLogger(logger.With("component", "temporal")),
		ConnectionOptions: workflows.ConnectionOptions(cfg.Temporal),
	}
	if err := telemetry.TemporalOptions(&opts, obs.metrics, obs.tracing != nil); err != nil {
		return nil, err
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s, namespace %q: %w\n"+
			"Start a Temporal server or set temporal.address (TENURE_TEMPORAL_ADDRESS) and temporal.namespace (TENURE_TEMPORAL_NAMESPACE)",
			cfg.Temporal.Address, cfg.Temporal.Namespace, err)
	}
	return c, nil
}

// connections are what a command talks to, opened from its configuration.
type connections struct {
	cfg      *config.Config
	logger   *slog.Logger
	store    *db.Store
	temporal client.Client
	obs      observability
}

// connect loads and validates the configuration a command needs and opens
// the database (NeedDatabase) and Temporal (NeedTemporal) connections.
// Unless the configuration gives temporal.address, a dev server `tenure
// dev` runs for the same data directory is preferred to the default.
func connect(ctx context.Context, file string, need config.Need) (*connections, error) {
	return open(ctx, file, need, false)
}

// connectObserved is connect for the long-running processes (serve,
// worker): they also export metrics when an admin listener is configured,
// and traces when the OTEL_* variables ask for them.
func connectObserved(ctx context.Context, file string, need config.Need) (*connections, error) {
	return open(ctx, file, need, true)
}

func open(ctx context.Context, file string, need config.Need, observed bool) (*connections, error) {
	cfg, err := loadConfig(file, need)
	if err != nil {
		return nil, err
	}
	if need&config.NeedTemporal != 0 && !cfg.Temporal.AddressGiven {
		if dev, ok := temporalcli.ReadRecord(devServerRecord(cfg)); ok {
			cfg.Temporal.Address = dev.Address
		}
	}
	c := &connections{cfg: cfg, logger: newLogger(cfg)}
	if observed {
		if c.obs, err = observe(ctx, cfg); err != nil {
			return nil, err
		}
	}
	if need&config.NeedDatabase != 0 {
		if c.store, err = openStore(ctx, cfg); err != nil {
			c.close()
			return nil, err
		}
	}
	if need&config.NeedTemporal != 0 {
		if c.temporal, err = dialTemporal(ctx, cfg, c.logger, c.obs); err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

// close releases the connections.
func (c *connections) close() {
	if c.temporal != nil {
		c.temporal.Close()
	}
	if c.store != nil {
		c.store.Pool.Close()
	}
	c.obs.close(c.logger)
}
