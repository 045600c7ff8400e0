// Package activities holds the side effects of Tenure's workflows:
// persistence, file processing and webhook delivery, one group (a struct)
// per domain. Workflows call them through method values (workflows/call)
// under the names Name gives them. Every activity is idempotent, so
// Temporal may run it more than once. What activities need from the layers
// above them (rendering events, starting workflows, driving fixtures) they
// get through the interfaces of dependencies.go.
package activities

import (
	"context"
	"log/slog"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/domain/risk"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// Deps are what activities need from the process that runs them.
type Deps struct {
	Config *config.Config
	Store  *db.Store
	Logger *slog.Logger
	// Dispatcher starts the deliveries of the events activities record
	// (webhook.Record) once their transaction has committed.
	Dispatcher *webhook.Dispatcher
	Views      Views
	Starters   Starters
	Fixtures   FixtureDriver
	// Metrics counts what activities commit and send; nil counts nothing.
	Metrics *telemetry.Metrics
	// Creditors are the contractual entities' SEPA creditors the
	// collection files are written for; nil takes the configuration's.
	Creditors collections.Creditors
	// Mandates are the SEPA mandates of the checkouts, which invoices
	// announce their collection under; nil issues no invoices.
	Mandates invoicing.Mandates
}

// Activities gathers the activity groups the worker registers.
type Activities struct {
	Sandbox        *SandboxFixtures
	ProductImports *ProductImports
	CSV            *CSVImports
	Deliveries     *Deliveries
	Offers         *Offers
	Orders         *Orders
	Contracts      *Contracts
	Collections    *Collections
	Payouts        *Payouts
	// MaxConcurrentAttempts bounds the webhook attempts the worker runs at once.
	MaxConcurrentAttempts int
}

// New builds the activity groups over their dependencies. It fails when
// the webhook secret key is missing, the blob store cannot be opened or
// the contract policy is out of its ranges.
func New(d Deps) (*Activities, error) {
	terms, err := contracts.PolicyOf(d.Config.Contracts)
	if err != nil {
		return nil, err
	}
	bucket, err := csvimport.OpenBucket(context.Background(), d.Config)
	if err != nil {
		return nil, err
	}
	box, err := webhook.NewSecretBox(d.Config.Webhooks.SecretKey)
	if err != nil {
		return nil, err
	}
	importer := catalog.Importer{Policy: catalog.NewPolicy(d.Config)}
	risks, err := risk.LoadPolicy(d.Config.Risk)
	if err != nil {
		return nil, err
	}
	batch, err := payouts.NewBatch(d.Config, d.Store)
	if err != nil {
		return nil, err
	}
	creditors := d.Creditors
	if creditors == nil {
		creditors = collections.CreditorsOf(d.Config)
	}
	var issuing *invoicing.Issuing
	if d.Mandates != nil {
		issuing = invoicing.New(d.Config, d.Mandates)
	}
	return &Activities{
		Sandbox:        &SandboxFixtures{Store: d.Store, Importer: importer, Driver: d.Fixtures},
		ProductImports: &ProductImports{Imports: catalog.Imports{Store: d.Store, Importer: importer}},
		CSV: &CSVImports{
			Jobs:      csvimport.Jobs{Store: d.Store},
			Processor: csvimport.Processor{Store: d.Store, Bucket: bucket, Importer: importer, ChunkRows: d.Config.Catalog.Imports.ChunkRows, Metrics: d.Metrics},
			Reports:   csvimport.ErrorReport{Store: d.Store, Bucket: bucket},
			Search:    catalog.SearchIndexer{Store: d.Store},
		},
		Deliveries: &Deliveries{
			Store:   d.Store,
			Box:     box,
			Sender:  webhook.NewSender(webhook.PolicyFor(d.Config), d.Config.Webhooks.AttemptTimeout),
			Logger:  d.Logger,
			Metrics: d.Metrics,
		},
		Offers: &Offers{
			Store: d.Store, Dispatcher: d.Dispatcher, Views: d.Views, Starters: d.Starters,
			Risk: risks, Logger: d.Logger, Metrics: d.Metrics,
		},
		Orders: &Orders{
			Store: d.Store, Dispatcher: d.Dispatcher, Views: d.Views, Starters: d.Starters,
			Payouts: payouts.TermsOf(d.Config), Logger: d.Logger, Metrics: d.Metrics,
		},
		Contracts: &Contracts{
			Store: d.Store, Dispatcher: d.Dispatcher, Policy: terms, BaseRateBP: d.Config.Collections.BaseRateBP,
			Invoicing: issuing, Logger: d.Logger, Metrics: d.Metrics,
		},
		Payouts: &Payouts{Batch: batch},
		Collections: &Collections{Runner: &collections.Runner{
			Store: d.Store, Bucket: bucket, BankDays: d.Config.Collections.BankDays, Creditors: creditors,
		}},
		MaxConcurrentAttempts: d.Config.Webhooks.MaxConcurrentAttempts,
	}, nil
}
