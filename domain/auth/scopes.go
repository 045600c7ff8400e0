// Package identity issues and checks seller credentials and access tokens.
package auth

import (
	"fmt"
	"slices"
	"strings"
)

// Scope is a right an access token carries; every Seller API operation
// demands one.
type Scope = string

// The seller scopes of the published Seller API.
const (
	ScopeBrandingRead       Scope = "seller-branding:read"
	ScopeCatalogEdit        Scope = "seller-catalog:edit"
	ScopeCatalogRead        Scope = "seller-catalog:read"
	ScopeMetricsRead        Scope = "seller-metrics:read"
	ScopeOfferEdit          Scope = "seller-offer:edit"
	ScopeOfferRead          Scope = "seller-offer:read"
	ScopeOrderEdit          Scope = "seller-order:edit"
	ScopeOrderRead          Scope = "seller-order:read"
	ScopeSimulationsRun     Scope = "seller-scenario-simulations:run"
	ScopeShipmentEdit       Scope = "seller-shipment:edit"
	ScopeShippingMethodEdit Scope = "seller-shipping-method:edit"
	ScopeShippingMethodRead Scope = "seller-shipping-method:read"
	ScopeUserInfoRead       Scope = "user-info:read"
)

// Tenure's extension scopes.
const (
	// ScopeWebhookRead reads webhook endpoints and the event log.
	ScopeWebhookRead Scope = "seller-webhook:read"
	// ScopeWebhookEdit manages webhook endpoints and redelivers events.
	ScopeWebhookEdit Scope = "seller-webhook:edit"
	// ScopeBrandingEdit changes the seller's profile.
	ScopeBrandingEdit Scope = "seller-branding:edit"
	// ScopeDiscountRead reads discount codes.
	ScopeDiscountRead Scope = "seller-discount:read"
	// ScopeDiscountEdit creates and deactivates discount codes.
	ScopeDiscountEdit Scope = "seller-discount:edit"
	// ScopeContractRead reads rental contracts and their termination
	// quotes.
	ScopeContractRead Scope = "seller-contract:read"
	// ScopeContractEdit records returns, buy-outs, extensions and
	// terminations of rental contracts.
	ScopeContractEdit Scope = "seller-contract:edit"
)

// SellerScopes is every scope a seller's client may be granted.
var SellerScopes = []Scope{
	ScopeBrandingRead, ScopeCatalogEdit, ScopeCatalogRead, ScopeMetricsRead,
	ScopeOfferEdit, ScopeOfferRead, ScopeOrderEdit, ScopeOrderRead,
	ScopeSimulationsRun, ScopeShipmentEdit, ScopeShippingMethodEdit,
	ScopeShippingMethodRead, ScopeUserInfoRead,
	ScopeWebhookRead, ScopeWebhookEdit,
	ScopeBrandingEdit, ScopeDiscountRead, ScopeDiscountEdit,
	ScopeContractRead, ScopeContractEdit,
}

// ClientScope is the scope value sellers send to the token endpoint to ask
// for every seller scope at once.
const ClientScope = "client"

// GrantScopes resolves the scope parameter of a token request: empty or
// "client" grants every seller scope; otherwise each named scope must be a
// seller scope and exactly those are granted.
func GrantScopes(requested string) ([]Scope, error) {
	fields := strings.Fields(requested)
	if len(fields) == 0 || slices.Contains(fields, ClientScope) {
		return slices.Clone(SellerScopes), nil
	}
	granted := make([]Scope, 0, len(fields))
	for _, f := range fields {
		if !slices.Contains(SellerScopes, f) {
			return nil, fmt.Errorf("unknown scope %q", f)
		}
		if !slices.Contains(granted, f) {
			granted = append(granted, f)
		}
	}
	return granted, nil
}

// HasAll reports whether granted includes every required scope.
func HasAll(granted, required []Scope) bool {
	for _, r := range required {
		if !slices.Contains(granted, r) {
			return false
		}
	}
	return true
}
