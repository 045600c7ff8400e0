// Package seller serves the Seller API's operations: its handlers
// translate each request into a call of a service and render what the
// service answers in the contract's views (also the bodies of the offer
// and order events). Its server interface and models are generated into
// api/seller/sellerapi from api/openapi/seller.yaml; the guard (api/guard)
// has checked every request before a handler runs.
package seller

import (
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/services"
)

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
	contractHandlers
	invoiceHandlers
	payoutHandlers
	csvImports
	sellerProfiles
	discountCodes
}

// New serves the Seller API's operations over the services.
func New(cfg *config.Config, svc *services.Services) sellerapi.StrictServerInterface {
	engine := svc.Pricing
	return sellerAPI{
		shippingMethods: shippingMethods{service: svc.ShippingMethods},
		productImports:  productImports{catalog: svc.Catalog},
		catalogReads:    catalogReads{catalog: svc.Catalog, engine: engine},
		rentalPricing:   rentalPricing{catalog: svc.Catalog, engine: engine},
		simulations: simulations{
			environment: cfg.Environment, offers: svc.Offers, orders: svc.Orders, contracts: svc.Contracts,
			simulations: svc.Simulations,
		},
		webhookEndpoints: webhookEndpoints{webhooks: svc.Webhooks},
		events:           events{webhooks: svc.Webhooks},
		offerHandlers:    offerHandlers{service: svc.Offers},
		orderHandlers:    orderHandlers{service: svc.Orders},
		contractHandlers: contractHandlers{service: svc.Contracts},
		invoiceHandlers:  invoiceHandlers{service: svc.Invoices},
		payoutHandlers:   payoutHandlers{service: svc.Payouts},
		csvImports:       csvImports{imports: svc.CatalogImports},
		sellerProfiles:   sellerProfiles{sellers: svc.Sellers, cfg: cfg},
		discountCodes:    discountCodes{service: svc.DiscountCodes},
	}
}
