package main

import (
	"context"
	"log/slog"
	"net"

	"go.temporal.io/sdk/client"
	"golang.org/x/sync/errgroup"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// observability is what a long-running process shows operators: its
// metrics and admin listener (none unless http.admin_addr is set, so a
// process nobody scrapes records nothing) and its traces (none unless the
// OTEL_* variables ask for them).
type observability struct {
	metrics *telemetry.Metrics
	admin   net.Listener
	tracing *telemetry.Tracing
}

// observe opens the admin listener and starts the metrics registry when
// the configuration has one, and tracing when the environment asks for it.
func observe(ctx context.Context, cfg *config.Config) (observability, error) {
	var o observability
	if cfg.HTTP.AdminAddr != "" {
		ln, err := listen("http.admin_addr", cfg.HTTP.AdminAddr)
		if err != nil {
			return o, err
		}
		o.admin, o.metrics = ln, telemetry.NewMetrics()
	}
	tracing, err := telemetry.StartTracing(ctx, "tenure")
	if err != nil {
		if o.admin != nil {
			o.admin.Close()
		}
		return observability{}, err
	}
	o.tracing = tracing
	return o, nil
}

// watchWorker exports what the workers look after: the events waiting for
// the relay and the CSV import queue, read from the database.
func (o observability) watchWorker(store *db.Store, logger *slog.Logger) {
	o.metrics.WatchBacklog(webhook.UndispatchedBacklog(store), logger)
	o.metrics.WatchBacklog(csvimport.QueueBacklog(store), logger)
}

// serveAdmin serves the metrics and health checks until ctx ends; without
// an admin listener it returns at once.
func (o observability) serveAdmin(ctx context.Context, store *db.Store, tc client.Client, logger *slog.Logger) error {
	if o.admin == nil {
		return nil
	}
	o.metrics.WatchPool(store.Pool)
	return telemetry.NewAdmin(o.metrics, telemetry.NewReadiness(store.Pool, tc), logger).Serve(ctx, o.admin)
}

// close exports the spans still buffered and closes the admin listener,
// which Serve has closed already if it ran.
func (o observability) close(logger *slog.Logger) {
	if o.admin != nil {
		o.admin.Close()
	}
	if err := o.tracing.Shutdown(context.Background()); err != nil {
		logger.Warn("exporting the last spans failed", "error", err)
	}
}

// alongside runs work with the admin listener beside it; both stop when ctx
// ends or either fails.
func (o observability) alongside(ctx context.Context, store *db.Store, tc client.Client, logger *slog.Logger, work func(context.Context) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return o.serveAdmin(gctx, store, tc, logger) })
	g.Go(func() error { return work(gctx) })
	return g.Wait()
}
