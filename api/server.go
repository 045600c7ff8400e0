// Package api serves Tenure's HTTP interfaces with Fiber: the Seller API
// (generated from api/openapi/seller.yaml), the Customer-Facing API
// (generated from api/openapi/customer.yaml), the token endpoint, health
// checks, the contracts themselves, their rendered reference (embedded from
// web/docs) and the hosted checkout page (its assets embedded from
// web/checkout).
package api

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/foundation/links"
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

// sellerAPI implements the generated Seller API interface, one embedded
// group per resource.
type sellerAPI struct {
	shippingMethods
	productImports
	catalogReads
	rentalPricing
	simulations
	webhookEndpoints
	events
	offerHandlers
	orderHandlers
	csvImports
	sellerProfiles
	discountCodes
}

// New builds the HTTP application.
func New(d Deps) (*fiber.App, error) {
	operations, err := loadContract(openapi.Seller)
	if err != nil {
		return nil, err
	}
	limits, err := newRateLimits(d.Config, time.Now)
	if err != nil {
		return nil, err
	}
	svc := d.Services
	token, err := newTokenEndpoint(svc.Sellers, d.Tokens, d.Logger, limits)
	if err != nil {
		return nil, err
	}

	app := fiber.New(fiber.Config{
		AppName:               "tenure",
		DisableStartupMessage: true,
		ErrorHandler:          errorHandler(d.Logger),
		BodyLimit:             d.Config.HTTP.BodyLimit,
		// A head that does not fit is refused with 431 (see limitHead).
		ReadBufferSize: maxHeadLength,
		// Bodies are streamed to the handlers, so a CSV upload never sits
		// in memory; limitBody keeps the body limit for every other route.
		StreamRequestBody: true,
		// Long enough for a 250 MB upload at about 4 Mbit/s: fasthttp's
		// read deadline covers the whole request, body included.
		ReadTimeout:  10 * time.Minute,
		WriteTimeout: 60 * time.Second,
		IdleTimeout:  2 * time.Minute,
	})
	app.Use(requestIDMiddleware, observeRequests(d.Metrics), accessLog(d.Logger), recover.New(recover.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c *fiber.Ctx, e any) {
			d.Logger.Error("panic while serving a request", "request_id", requestID(c), "panic", e)
		},
	}), limitHead)

	app.Get("/healthz", healthz)
	app.Get("/readyz", readiness(svc.Readiness))
	app.Get("/openapi/seller.yaml", sellerContract)
	app.Get("/openapi/customer.yaml", customerContract)
	if err := mountDocs(app); err != nil {
		return nil, err
	}
	files := importFiles{imports: svc.CatalogImports}
	// The routes callable without a token are limited per client address;
	// health checks and the contract are not, so orchestrators always get in.
	byAddress := limits.perAddress(refuseWithError)
	// Registered before limitBody: an upload streams past the body limit.
	app.Put(uploadPath, named("uploadCatalogImportFile"), byAddress, files.upload)
	app.Use(limitBody(d.Config.HTTP.BodyLimit))
	app.Get(errorsPath, named("downloadCatalogImportErrors"), byAddress, files.errorReport)
	app.Post("/oauth2/token", named("issueToken"), limits.perAddress(token.overLimit), token.handle)

	keys := svc.IdempotencyKeys
	purgeKeysWhileServing(app, keys, d.Logger)

	// Seller tokens and customer tokens are revoked by one mechanism: a
	// cache of credentials' generations and offers' standings kept while
	// PostgreSQL announces their changes.
	revocations := svc.Revocations
	listenForRevocations(app, revocations)
	customerTokens := auth.NewOfferTokens(d.Config.Auth.SigningKey, d.Config.Auth.CustomerTokenTTL)
	token.offers = &offerTokenExchange{offers: svc.CustomerOffers, signer: links.NewSigner(d.Config.Links.SigningKey), tokens: customerTokens}
	// The Customer-Facing operations anyone may call are limited per client
	// address, like the other routes callable without a token, and take
	// small bodies only.
	publicLimits := []fiber.Handler{byAddress, limitPublicBody}
	engine := svc.Pricing
	customerKeys := &idempotentRequests{ledger: keys, caller: customerCaller(limits.proxies), logger: d.Logger}
	bearer := customerBearer{tokens: customerTokens, revocations: revocations, logger: d.Logger}
	if err := mountCustomerAPI(app, d, svc, bearer, customerKeys, limits, publicLimits); err != nil {
		return nil, err
	}
	if err := mountCheckout(app, d.Config.Checkout); err != nil {
		return nil, err
	}

	// Every /v1 request, routed or not, needs a valid token first.
	app.Use("/v1", bearerAuth(d.Tokens, revocations, d.Logger), limits.perSeller)
	impl := sellerAPI{
		shippingMethods: shippingMethods{service: svc.ShippingMethods},
		productImports:  productImports{catalog: svc.Catalog},
		catalogReads:    catalogReads{catalog: svc.Catalog, engine: engine},
		rentalPricing:   rentalPricing{catalog: svc.Catalog, engine: engine},
		simulations: simulations{
			environment: d.Config.Environment, offers: svc.Offers, orders: svc.Orders, simulations: svc.Simulations,
		},
		webhookEndpoints: webhookEndpoints{webhooks: svc.Webhooks},
		events:           events{webhooks: svc.Webhooks},
		offerHandlers:    offerHandlers{service: svc.Offers},
		orderHandlers:    orderHandlers{service: svc.Orders},
		csvImports:       csvImports{imports: svc.CatalogImports},
		sellerProfiles:   sellerProfiles{sellers: svc.Sellers, cfg: d.Config},
		discountCodes:    discountCodes{service: svc.DiscountCodes},
	}
	router := newGuardedRouter(app, operations)
	sellerapi.RegisterHandlers(idempotentRouter{guardedRouter: router, requests: &idempotentRequests{
		ledger: keys, caller: sellerCaller, logger: d.Logger, holdBeforeRecord: d.Config.Idempotency.TestHoldBeforeRecord,
	}}, sellerapi.NewStrictHandler(impl, nil))
	if len(router.unguarded) > 0 {
		return nil, fmt.Errorf("routes without a contract operation: %v", router.unguarded)
	}
	return app, nil
}
