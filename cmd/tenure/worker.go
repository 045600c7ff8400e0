package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api/seller"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/collection"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

func workerCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "worker",
		Short: "Run the Temporal worker (run as many as you need)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := connectObserved(cmd.Context(), file(), config.NeedDatabase|config.NeedTemporal|config.NeedWebhooks)
			if err != nil {
				return err
			}
			defer c.close()
			return c.obs.alongside(cmd.Context(), c.store, c.temporal, c.logger, func(ctx context.Context) error {
				return runWorkers(ctx, c.cfg, c.store, c.temporal, c.logger, c.obs)
			})
		},
	}
}

// runWorkers polls every task queue and runs the webhook relay until ctx
// ends, then stops them, which lets running activities finish.
func runWorkers(ctx context.Context, cfg *config.Config, store *db.Store, tc client.Client, logger *slog.Logger, obs observability) error {
	if err := searchattr.Ensure(ctx, tc, cfg.Temporal.Namespace); err != nil {
		return err
	}
	fixtures, err := services.NewFixtures(cfg, store, tc)
	if err != nil {
		return err
	}
	obs.watchWorker(store, logger)
	deps := workflows.Deps{Config: cfg, Store: store, Logger: logger, Views: seller.NewEventViews(cfg), Fixtures: fixtures, Metrics: obs.metrics}
	if len(cfg.Mandates.IBANKeys) == 0 {
		logger.Warn("mandates.iban_keys is not set: no invoices are issued")
	} else {
		ring, err := cfg.Mandates.IBANRing()
		if err != nil {
			return err
		}
		deps.Mandates = invoicing.CheckoutMandates{Ring: ring}
	}
	workers, err := workflows.NewWorkers(tc, deps)
	if err != nil {
		return err
	}
	if err := workers.Start(); err != nil {
		return err
	}
	logger.Info("worker polling")
	// The daily collection run's Schedule follows collections.run_at. A
	// stop asked for while it is written is a stop, not a failure.
	if err := collection.EnsureSchedule(ctx, tc, cfg); err != nil && ctx.Err() == nil {
		workers.Stop()
		return fmt.Errorf("the collection runs' schedule: %w", err)
	}
	// Contracts of orders confirmed before contracts ran get their
	// workflows once; a failure is retried at the next start.
	if n, err := workflows.BackfillContracts(ctx, tc, store, cfg); err != nil {
		logger.Error("backfilling the contracts of orders confirmed before contracts ran", "error", err)
	} else if n > 0 {
		logger.Info("contracts backfilled", "contracts", n)
	}
	<-ctx.Done()
	logger.Info("stopping worker")
	workers.Stop()
	return nil
}
