package main

import (
	"context"
	"log/slog"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/webhook"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/delivery"
)

func workerCommand(file func() string) *cobra.Command {
	return &cobra.Command{
		Use:   "worker",
		Short: "Run the Temporal worker (run as many as you need)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := connect(cmd.Context(), file(), config.NeedDatabase|config.NeedTemporal|config.NeedWebhooks)
			if err != nil {
				return err
			}
			defer c.close()
			return runWorkers(cmd.Context(), c.cfg, c.store, c.temporal, c.logger)
		},
	}
}

// runWorkers polls every task queue and runs the webhook relay until ctx
// ends, then stops them, which lets running activities finish.
func runWorkers(ctx context.Context, cfg *config.Config, store *db.Store, tc client.Client, logger *slog.Logger) error {
	if err := workflows.EnsureSearchAttributes(ctx, tc, cfg.Temporal.Namespace); err != nil {
		return err
	}
	dispatcher := delivery.NewDispatcher(store, tc, cfg.Webhooks)
	acts, err := activities.New(activities.Deps{Config: cfg, Store: store, Temporal: tc, Logger: logger, Dispatcher: dispatcher})
	if err != nil {
		return err
	}
	workers := workflows.NewWorkers(tc, acts)
	if err := workers.Start(); err != nil {
		return err
	}
	relay := webhook.NewRelay(dispatcher, cfg.Webhooks.RelayInterval, cfg.Webhooks.RelayGrace, logger)
	relay.Start()
	logger.Info("worker polling")
	<-ctx.Done()
	logger.Info("stopping worker")
	relay.Stop()
	workers.Stop()
	return nil
}
