// Package workflows runs Tenure's Temporal workers: one per task queue, each
// registering its queue's workflows and activities, all from this file.
package workflows

import (
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/internal/permanent"
	"github.com/tenurehq/tenure/workflows/catalogimport"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/productimport"
	"github.com/tenurehq/tenure/workflows/sandbox"
	"github.com/tenurehq/tenure/workflows/webhook"
)

// queue is what one task queue's worker registers, and how it polls.
type queue struct {
	name       string
	workflows  []any
	activities map[string]any
	options    worker.Options
}

func queues(acts *activities.Activities) []queue {
	return []queue{
		{
			name:      sandbox.TaskQueue,
			workflows: []any{sandbox.SeedSeller},
			activities: map[string]any{
				sandbox.SeedShippingMethodsActivity: acts.Sandbox.SeedShippingMethods,
				sandbox.SeedCatalogActivity:         acts.Sandbox.SeedCatalog,
				sandbox.SeedOffersActivity:          acts.Sandbox.SeedOffers,
			},
		},
		{
			name:      productimport.TaskQueue,
			workflows: []any{productimport.ImportProducts, catalogimport.ImportCSV},
			activities: map[string]any{
				productimport.RunImportActivity:    acts.Catalog.RunProductImport,
				catalogimport.ProcessActivity:      acts.CSV.Process,
				catalogimport.SetStatusActivity:    acts.CSV.SetStatus,
				catalogimport.ExpireUploadActivity: acts.CSV.ExpireUpload,
				catalogimport.WriteErrorsActivity:  acts.CSV.WriteErrors,
			},
		},
		{
			name:      offer.TaskQueue,
			workflows: []any{offer.Offer},
			activities: map[string]any{
				offer.CreateActivity:     acts.Offers.Create,
				offer.TransitionActivity: acts.Offers.Transition,
				offer.AcceptActivity:     acts.Offers.Accept,
				offer.EditActivity:       acts.Offers.Edit,
				offer.StartOfferActivity: acts.Offers.StartOffer,
				offer.StartOrderActivity: acts.Offers.StartOrder,
				offer.ReviewRiskActivity: acts.Offers.ReviewRisk,
			},
			options: EntityWorkerOptions,
		},
		{
			name:      order.TaskQueue,
			workflows: []any{order.Order},
			activities: map[string]any{
				order.TransitionActivity: acts.Orders.Transition,
				order.ConfirmActivity:    acts.Orders.Confirm,
				order.ShipActivity:       acts.Orders.Ship,
			},
			options: EntityWorkerOptions,
		},
		{
			name:      webhook.TaskQueue,
			workflows: []any{webhook.Deliver},
			activities: map[string]any{
				webhook.SendAttemptActivity:   acts.Webhooks.SendAttempt,
				webhook.RecordAttemptActivity: acts.Webhooks.RecordAttempt,
			},
			// Attempts mostly wait on receivers: many run at once, and
			// enough pollers keep a burst from queueing behind one poll.
			options: worker.Options{
				MaxConcurrentActivityExecutionSize:     acts.MaxConcurrentAttempts,
				MaxConcurrentActivityTaskPollers:       8,
				MaxConcurrentWorkflowTaskPollers:       4,
				MaxConcurrentWorkflowTaskExecutionSize: 200,
			},
		},
	}
}

// EntityWorkerOptions suit the offer and order queues: their work is
// workflow tasks (persistence runs in local activities), so more pollers
// keep a burst of requests from queueing behind two polls.
var EntityWorkerOptions = worker.Options{
	MaxConcurrentWorkflowTaskPollers: 8,
}

// Workers are the started workers of one process.
type Workers struct {
	workers []worker.Worker
}

// NewWorkers creates a worker for every task queue, registering each
// activity under the exact name its workflow calls it by; every worker
// stops retrying permanent failures (package permanent).
func NewWorkers(c client.Client, acts *activities.Activities) *Workers {
	var ws Workers
	for _, q := range queues(acts) {
		opts := q.options
		opts.DisableRegistrationAliasing = true
		opts.Interceptors = append(opts.Interceptors, permanent.Interceptor())
		w := worker.New(c, q.name, opts)
		for _, wf := range q.workflows {
			w.RegisterWorkflowWithOptions(wf, workflow.RegisterOptions{})
		}
		for name, fn := range q.activities {
			w.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
		}
		ws.workers = append(ws.workers, w)
	}
	return &ws
}

// Start starts polling every queue; on error the ones already started are stopped.
func (ws *Workers) Start() error {
	for i, w := range ws.workers {
		if err := w.Start(); err != nil {
			for _, started := range ws.workers[:i] {
				started.Stop()
			}
			return fmt.Errorf("starting worker: %w", err)
		}
	}
	return nil
}

// Stop stops every worker, letting running activities finish within the
// worker's stop timeout.
func (ws *Workers) Stop() {
	for _, w := range ws.workers {
		w.Stop()
	}
}
