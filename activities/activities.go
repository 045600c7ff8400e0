// Package activities holds the side effects of Tenure's workflows:
// persistence, pricing, file processing and webhook delivery. Every activity
// is idempotent, so Temporal may run it more than once.
package activities

import (
	"context"
	"log/slog"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/catalog"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/csvimport"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/webhook"
)

// Deps are what activities need from the process that runs them.
type Deps struct {
	Config   *config.Config
	Store    *db.Store
	Temporal client.Client
	Logger   *slog.Logger
	// Dispatcher starts the deliveries of the events activities record
	// (webhook.Record) once their transaction has committed.
	Dispatcher *webhook.Dispatcher
}

// Activities gathers the activity groups the worker registers.
type Activities struct {
	Sandbox        *SandboxFixtures
	ProductImports *ProductImports
	CSV            *CSVImports
	Deliveries     *Deliveries
	Offers         *Offers
	Orders         *Orders
	// MaxConcurrentAttempts bounds the webhook attempts the worker runs at once.
	MaxConcurrentAttempts int
}

// New builds the activity groups over their dependencies. It fails when
// the webhook secret key is missing or the blob store cannot be opened.
func New(d Deps) (*Activities, error) {
	bucket, err := csvimport.OpenBucket(context.Background(), d.Config)
	if err != nil {
		return nil, err
	}
	box, err := webhook.NewSecretBox(d.Config.Webhooks.SecretKey)
	if err != nil {
		return nil, err
	}
	engine, err := d.Config.Pricing.NewEngine()
	if err != nil {
		return nil, err
	}
	importer := catalog.Importer{Policy: catalog.NewPolicy(d.Config)}
	dispatcher := d.Dispatcher
	return &Activities{
		Sandbox: &SandboxFixtures{
			Store: d.Store, Importer: importer,
			Offers: offers.NewService(d.Config, d.Store, d.Temporal, engine),
			Orders: &orders.Service{Store: d.Store, Temporal: d.Temporal},
		},
		ProductImports: &ProductImports{Imports: catalog.Imports{Store: d.Store, Importer: importer}},
		CSV: &CSVImports{
			Jobs:      csvimport.Jobs{Store: d.Store},
			Processor: csvimport.Processor{Store: d.Store, Bucket: bucket, Importer: importer, ChunkRows: d.Config.Catalog.Imports.ChunkRows},
			Reports:   csvimport.ErrorReport{Store: d.Store, Bucket: bucket},
		},
		Deliveries: &Deliveries{
			Store:  d.Store,
			Box:    box,
			Sender: webhook.NewSender(webhook.PolicyFor(d.Config.Environment), d.Config.Webhooks.AttemptTimeout),
			Logger: d.Logger,
		},
		Offers: &Offers{
			Store: d.Store, Temporal: d.Temporal, Dispatcher: dispatcher,
			Risk: offers.NewRiskRules(d.Config.Risk), Logger: d.Logger,
		},
		Orders:                &Orders{Store: d.Store, Dispatcher: dispatcher, Logger: d.Logger},
		MaxConcurrentAttempts: d.Config.Webhooks.MaxConcurrentAttempts,
	}, nil
}
