// Package api composes Tenure's HTTP application with Fiber: the guard
// every request passes first (api/guard), the Seller API (api/seller) and
// the Customer-Facing API (api/customer), each generated from its contract
// in api/openapi, the token endpoint, health checks, the contracts
// themselves, their rendered reference (embedded from web/docs) and the
// hosted checkout page (its assets embedded from web/checkout), and the
// console for operators (api/console, its pages embedded from
// web/console). Errors are one type (api/apierror); the services are the
// API's only way to the workflows and to storage.
package api

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/customer"
	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/services"
)

// Deps are what the HTTP server needs from the rest of Tenure. The
// services are its only way to the workflows and to storage.
type Deps struct {
	Config   *config.Config
	Services *services.Services
	Tokens   *auth.Tokens
	Logger   *slog.Logger
	// Metrics counts requests; nil counts nothing.
	Metrics *telemetry.Metrics
}

// New builds the HTTP application: the routes in the order a request
// meets them, each behind what the guard checks first.
func New(d Deps) (*fiber.App, error) {
	svc := d.Services
	g, err := guard.New(d.Config, svc, d.Tokens, d.Logger)
	if err != nil {
		return nil, err
	}
	app := fiber.New(fiber.Config{
		AppName:               "tenure",
		DisableStartupMessage: true,
		ErrorHandler:          guard.ErrorHandler(d.Logger),
		BodyLimit:             d.Config.HTTP.BodyLimit,
		// A head that does not fit is refused with 431 (see the guard's limitHead).
		ReadBufferSize: guard.MaxHeadLength,
		// Bodies are streamed to the handlers, so a CSV upload never sits
		// in memory; guard.LimitBody keeps the body limit for every other route.
		StreamRequestBody: true,
		// Long enough for a 250 MB upload at about 4 Mbit/s: fasthttp's
		// read deadline covers the whole request, body included.
		ReadTimeout:  10 * time.Minute,
		WriteTimeout: 60 * time.Second,
		IdleTimeout:  2 * time.Minute,
	})
	app.Use(g.Front(d.Metrics)...)

	app.Get("/healthz", healthz)
	app.Get("/readyz", readiness(svc.Readiness))
	app.Get("/openapi/seller.yaml", sellerContract)
	app.Get("/openapi/customer.yaml", customerContract)
	if err := mountDocs(app); err != nil {
		return nil, err
	}
	files := seller.NewImportFiles(svc.CatalogImports)
	// Registered before guard.LimitBody: an upload streams past the body limit.
	app.Put(seller.UploadPath, guard.Named("uploadCatalogImportFile"), g.ByAddress(), files.Upload)
	app.Use(guard.LimitBody(d.Config.HTTP.BodyLimit))
	app.Get(seller.ErrorsPath, guard.Named("downloadCatalogImportErrors"), g.ByAddress(), files.ErrorReport)
	app.Get(customer.InvoicePath, guard.Named("downloadInvoice"), g.ByAddress(), customer.NewInvoiceLinks(svc.Invoices).PDF)
	g.MountToken(app)
	g.KeepWhileServing(app)

	provider := customer.Provider(d.Config)
	customerRoutes, base, err := g.Customer(app, provider)
	if err != nil {
		return nil, err
	}
	if provider != nil && d.Config.IDV.Provider.URL == "" {
		sim := customer.NewSimulation(*provider, d.Config.HTTP.PublicURL+base+"/idv/callback")
		app.Get(customer.SimulationPath, sim.Show)
		app.Post(customer.SimulationPath, append(g.PublicLimits(), sim.Report)...)
	}
	customerapi.RegisterHandlers(customerRoutes, customerapi.NewStrictHandler(
		customer.New(d.Config, svc, provider, seller.NewEventViews(d.Config).Offer), customer.Middlewares(g.Proxies())))
	if err := customerRoutes.Check(); err != nil {
		return nil, err
	}
	if err := mountCheckout(app, d.Config.Checkout); err != nil {
		return nil, err
	}
	if err := mountConsole(app, svc, g, d); err != nil {
		return nil, err
	}

	sellerRoutes, err := g.Seller(app)
	if err != nil {
		return nil, err
	}
	sellerapi.RegisterHandlers(sellerRoutes, sellerapi.NewStrictHandler(seller.New(d.Config, svc), nil))
	if err := sellerRoutes.Check(); err != nil {
		return nil, err
	}
	return app, nil
}
