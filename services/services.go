package services

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/csvimport"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/workflows/delivery"
	"github.com/tenurehq/tenure/workflows/entity"
)

// Services are the services of one deployment, all over the same
// configuration, PostgreSQL store and Temporal client: what the API is
// given in place of the store and the client.
type Services struct {
	// Pricing is the deployment's pricing engine, the one the offers are
	// built with.
	Pricing          *pricing.Engine
	Offers           *Offers
	Orders           *Orders
	Contracts        *Contracts
	Invoices         *Invoices
	Payouts          *Payouts
	Collections      *Collections
	CustomerOffers   *CustomerOffers
	DiscountAttempts *DiscountAttempts
	Leads            *Leads
	Catalog          *Catalog
	CatalogImports   *CatalogImports
	ShippingMethods  *ShippingMethods
	Simulations      *Simulations
	Webhooks         *Webhooks
	DiscountCodes    *DiscountCodes
	Sellers          *Sellers
	// Revocations tell revoked seller and customer tokens while PostgreSQL
	// announces the changes that revoke them.
	Revocations *auth.Revocations
	// IdempotencyKeys record the requests sent with an Idempotency-Key.
	IdempotencyKeys *idempotency.Ledger
	// Readiness checks that PostgreSQL and Temporal answer.
	Readiness telemetry.Readiness
	// Console serves the console at /console/; nil when it is not configured.
	Console *Console
}

// New builds the services of a configuration over a store and a Temporal
// client; logger receives what their background work reports.
func New(cfg *config.Config, store *db.Store, temporal client.Client, logger *slog.Logger) (*Services, error) {
	engine, err := cfg.Pricing.NewEngine()
	if err != nil {
		return nil, err
	}
	bucket, err := csvimport.OpenBucket(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	endpoints, err := webhook.NewEndpoints(store, cfg)
	if err != nil {
		return nil, err
	}
	box, err := webhook.NewSecretBox(cfg.Webhooks.SecretKey)
	if err != nil {
		return nil, err
	}
	ibans, err := cfg.Mandates.IBANRing()
	if err != nil {
		return nil, fmt.Errorf("mandates.iban_keys: %w", err)
	}
	offerService := NewOffers(cfg, store, temporal, engine)
	sellerService := &Sellers{Store: store}
	webhooks := &Webhooks{Store: store, Endpoints: endpoints, Dispatcher: delivery.NewDispatcher(store, temporal, cfg.Webhooks)}
	budget := cfg.RateLimit.DiscountCodes
	all := &Services{
		Pricing:   engine,
		Offers:    offerService,
		Orders:    NewOrders(cfg, store, temporal),
		Contracts: NewContracts(cfg, store, temporal),
		Invoices:  NewInvoices(cfg, store),
		Payouts:   &Payouts{Store: store},
		Collections: &Collections{Store: store, Temporal: temporal, Runner: &collections.Runner{
			Store: store, Bucket: bucket, Creditors: collections.CreditorsOf(cfg), BankDays: cfg.Collections.BankDays,
		}},
		CustomerOffers: &CustomerOffers{
			Offers: offerService, Sellers: sellerService, Entities: cfg.Sellers.ContractualEntity,
			IDV: cfg.IDV.Rules(), Terms: cfg.Terms, Creditors: cfg.Creditor, IBANs: ibans, Now: time.Now,
		},
		DiscountAttempts: &DiscountAttempts{
			Budget: &discounts.Attempts{
				Store: store, PerOffer: budget.PerOffer, PerAddress: budget.PerAddress, Window: budget.Window, Now: time.Now,
			},
			Webhooks: webhooks, Logger: logger,
		},
		Leads: &Leads{Store: store},
		Catalog: &Catalog{
			Store: store, Temporal: temporal,
			Imports: catalog.Imports{Store: store, Importer: catalog.Importer{Policy: catalog.NewPolicy(cfg)}},
		},
		CatalogImports:  newCatalogImports(cfg, store, temporal, bucket),
		ShippingMethods: &ShippingMethods{Store: store},
		Simulations:     &Simulations{Store: store},
		Webhooks:        webhooks,
		DiscountCodes:   &DiscountCodes{Store: store, Now: time.Now},
		Sellers:         sellerService,
		Revocations:     auth.NewRevocations(store, logger),
		IdempotencyKeys: &idempotency.Ledger{Store: store, Sealer: box, Lease: cfg.Idempotency.Lease, Now: time.Now},
		Readiness:       telemetry.NewReadiness(store.Pool, temporal),
	}
	// The console is built last: it works through the services above.
	if all.Console, err = NewConsole(cfg, store, all); err != nil {
		return nil, err
	}
	return all, nil
}

// ErrUnavailable says a workflow did not confirm a change in time; the
// change may still happen, so the caller reads before it retries.
var ErrUnavailable = entity.ErrUnavailable
