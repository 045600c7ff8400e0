// Package customer serves the Customer-Facing API, which an offer's end
// customer (the hosted checkout, or a partner's front end) calls: its
// handlers read and change the offer through the customer offer services
// and render it in the contract's views, and it answers the API's own
// refusals in their shapes. Its server interface and models are generated
// into api/customer/customerapi from api/openapi/customer.yaml; the guard
// (api/guard) has checked the customer's token or the offer's shared
// token before a handler runs. It also serves the sandbox's simulated
// identity verification provider.
package customer

import (
	"encoding/json"
	"net/netip"

	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/services"
)

// customerAPI implements the generated Customer-Facing API interface, one
// embedded group per resource.
type customerAPI struct {
	customerOffers
	customerBranding
	customerTerms
	customerDiscounts
	customerIDV
	customerLeads
	customerPayment
}

// New serves the Customer-Facing API's operations over the
// services; provider is the deployment's identity verification provider
// (nil without one), offerEvent renders an offer in the events its
// customer's requests record.
func New(cfg *config.Config, svc *services.Services, provider *idv.Provider, offerEvent func(offers.Stored) (json.RawMessage, error)) customerapi.StrictServerInterface {
	shared := sharedTokens{offers: svc.CustomerOffers, signer: links.NewSigner(cfg.Links.SigningKey)}
	attempts := discountAttempts{service: svc.DiscountAttempts, offerEvent: offerEvent}
	return customerAPI{
		customerOffers:    customerOffers{shared: shared, attempts: attempts, checkout: svc.CustomerOffers},
		customerBranding:  customerBranding{sellers: svc.Sellers, shared: shared},
		customerTerms:     customerTerms{offers: svc.CustomerOffers, shared: shared},
		customerDiscounts: customerDiscounts{offers: svc.CustomerOffers, attempts: attempts},
		customerIDV:       customerIDV{offers: svc.CustomerOffers, provider: provider, publicURL: cfg.HTTP.PublicURL},
		customerLeads:     customerLeads{leads: svc.Leads, offers: svc.CustomerOffers},
		customerPayment:   customerPayment{offers: svc.CustomerOffers},
	}
}

// Middlewares run around every Customer-Facing operation: they keep
// the client's address (attributed past the trusted proxies) and answer the
// API's own refusals in its shapes.
func Middlewares(proxies []netip.Prefix) []customerapi.StrictMiddlewareFunc {
	return []customerapi.StrictMiddlewareFunc{rememberClient(proxies), customerRefusals}
}
