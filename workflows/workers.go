// Package workflows runs Tenure's Temporal workers: one per task queue,
// each registering its domains' workflows and activities through their
// Register functions, all from this file, with the webhook relay beside
// them.
package workflows

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/workflows/catalogimport"
	"github.com/tenurehq/tenure/workflows/collection"
	"github.com/tenurehq/tenure/workflows/contract"
	"github.com/tenurehq/tenure/workflows/delivery"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/permanent"
	"github.com/tenurehq/tenure/workflows/productimport"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

// queue is what one task queue's worker registers, and how it polls.
type queue struct {
	name     string
	register func(worker.Registry)
	options  worker.Options
}

func queues(acts *activities.Activities) []queue {
	return []queue{
		{
			name:     sandbox.TaskQueue,
			register: func(r worker.Registry) { sandbox.Register(r, acts.Sandbox) },
		},
		{
			// Both catalog workflows share the catalog queue.
			name: productimport.TaskQueue,
			register: func(r worker.Registry) {
				productimport.Register(r, acts.ProductImports)
				catalogimport.Register(r, acts.CSV)
			},
		},
		{
			name:     offer.TaskQueue,
			register: func(r worker.Registry) { offer.Register(r, acts.Offers) },
			options:  EntityWorkerOptions,
		},
		{
			name:     order.TaskQueue,
			register: func(r worker.Registry) { order.Register(r, acts.Orders) },
			options:  EntityWorkerOptions,
		},
		{
			name:     contract.TaskQueue,
			register: func(r worker.Registry) { contract.Register(r, acts.Contracts) },
			options:  EntityWorkerOptions,
		},
		{
			name:     collection.TaskQueue,
			register: func(r worker.Registry) { collection.Register(r, acts.Collections, acts.Payouts) },
		},
		{
			name:     delivery.TaskQueue,
			register: func(r worker.Registry) { delivery.Register(r, acts.Deliveries) },
			// Attempts mostly wait on receivers: many run at once, and
			// enough pollers keep a burst from queueing behind one poll.
			options: worker.Options{
				MaxConcurrentActivityExecutionSize:     acts.MaxConcurrentAttempts,
				MaxConcurrentActivityTaskPollers:       8,
				MaxConcurrentWorkflowTaskPollers:       4,
				MaxConcurrentWorkflowTaskExecutionSize: 200,
				// A delivery's workflow task waits this long for the
				// worker that ran its last one before any worker takes
				// it: after that worker's death, 1 s instead of the SDK's
				// 5 s (decision 0273; the server rounds a shorter one up
				// to 1 s). A delivery's history is a few dozen events,
				// cheap to replay elsewhere.
				StickyScheduleToStartTimeout: time.Second,
			},
		},
	}
}

// EntityWorkerOptions suit the offer, order and contract queues: their work is
// workflow tasks (persistence runs in local activities), so more pollers
// keep a burst of requests from queueing behind two polls.
var EntityWorkerOptions = worker.Options{
	MaxConcurrentWorkflowTaskPollers: 8,
}

// Deps are what the workers need from the process that runs them; the
// layers above the workflows hand in what activities ask of them.
type Deps struct {
	Config   *config.Config
	Store    *db.Store
	Logger   *slog.Logger
	Views    activities.Views
	Fixtures activities.FixtureDriver
	// Metrics counts transitions, webhook attempts and CSV rows; nil
	// counts nothing.
	Metrics *telemetry.Metrics
	// Creditors are the contractual entities' SEPA creditors the
	// collection files are written for; nil takes the configuration's.
	Creditors collections.Creditors
	// Mandates are the checkouts' SEPA mandates invoices are collected
	// under; nil issues no invoices.
	Mandates invoicing.Mandates
}

// Workers are the workers of one process, its webhook relay and the
// watch of its risk rule files.
type Workers struct {
	workers []worker.Worker
	relay   *webhook.Relay
	watch   func(context.Context)
	stop    context.CancelFunc
}

// NewWorkers creates a worker for every task queue and the relay that
// dispatches events a crash left behind; every worker stops retrying
// permanent failures (package permanent).
func NewWorkers(c client.Client, d Deps) (*Workers, error) {
	dispatcher := delivery.NewDispatcher(d.Store, c, d.Config.Webhooks)
	acts, err := activities.New(activities.Deps{
		Config: d.Config, Store: d.Store, Logger: d.Logger, Dispatcher: dispatcher,
		Views: d.Views, Starters: newStarters(c, d.Config), Fixtures: d.Fixtures, Metrics: d.Metrics, Creditors: d.Creditors, Mandates: d.Mandates,
	})
	if err != nil {
		return nil, err
	}
	// The process's workers share one cache of workflows between their
	// tasks; it must be sized before the first of them starts, and takes
	// effect when no worker of the process runs.
	worker.SetStickyWorkflowCacheSize(d.Config.Temporal.WorkflowCacheSize)
	ws := Workers{
		relay: webhook.NewRelay(dispatcher, d.Config.Webhooks.RelayInterval, d.Config.Webhooks.RelayGrace, d.Logger),
		watch: func(ctx context.Context) { acts.Offers.Risk.Watch(ctx, d.Config.Risk.ReloadInterval, d.Logger) },
		stop:  func() {},
	}
	for _, q := range queues(acts) {
		opts := q.options
		// Activities are registered and called under explicit names
		// (activities.Name), never under aliases of their function names.
		opts.DisableRegistrationAliasing = true
		opts.Interceptors = append(opts.Interceptors, permanent.Interceptor())
		w := worker.New(c, q.name, opts)
		q.register(w)
		ws.workers = append(ws.workers, w)
	}
	return &ws, nil
}

// Start starts polling every queue, the relay and the watch of the risk
// rule files; on error the workers already started are stopped.
func (ws *Workers) Start() error {
	for i, w := range ws.workers {
		if err := w.Start(); err != nil {
			for _, started := range ws.workers[:i] {
				started.Stop()
			}
			return fmt.Errorf("starting worker: %w", err)
		}
	}
	ws.relay.Start()
	ctx, stop := context.WithCancel(context.Background())
	ws.stop = stop
	go ws.watch(ctx)
	return nil
}

// Stop stops the watch, the relay and every worker, letting running
// activities finish within the worker's stop timeout.
func (ws *Workers) Stop() {
	ws.stop()
	ws.relay.Stop()
	for _, w := range ws.workers {
		w.Stop()
	}
}
