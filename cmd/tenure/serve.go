package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"syscall"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/services"
)

func serveCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Run the HTTP APIs (stateless: run as many as you need)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := connectObserved(cmd.Context(), file(), config.NeedDatabase|config.NeedTemporal|config.NeedHTTP|config.NeedWebhooks|config.NeedMandates)
			if err != nil {
				return err
			}
			defer c.close()
			ln, err := listen("http.addr", c.cfg.HTTP.Addr)
			if err != nil {
				return err
			}
			return c.obs.alongside(cmd.Context(), c.store, c.temporal, c.logger, func(ctx context.Context) error {
				return serveHTTP(ctx, ln, c.cfg, c.store, c.temporal, c.logger, c.obs.metrics)
			})
		},
	}
}

// listen opens a TCP listener, saying which setting to change when the
// address is taken.
func listen(key, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%s is already in use: stop what listens there or set %s (%s)", addr, key, config.EnvName(key))
	}
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s (%s): %w", addr, key, err)
	}
	return ln, nil
}

// serveHTTP serves the APIs on ln until ctx ends, then drains open requests.
func serveHTTP(ctx context.Context, ln net.Listener, cfg *config.Config, store *db.Store, tc client.Client, logger *slog.Logger, metrics *telemetry.Metrics) error {
	svc, err := services.New(cfg, store, tc, logger)
	if err != nil {
		return err
	}
	app, err := api.New(api.Deps{
		Config:   cfg,
		Services: svc,
		Tokens:   auth.NewTokens(cfg.Auth.SigningKey, cfg.Auth.TokenTTL),
		Logger:   logger,
		Metrics:  metrics,
	})
	if err != nil {
		return err
	}
	served := make(chan error, 1)
	go func() { served <- app.Listener(ln) }()
	logger.Info("serving HTTP", "addr", ln.Addr().String(), "environment", cfg.Environment)
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("stopping HTTP server")
	return app.ShutdownWithTimeout(cfg.Shutdown)
}
