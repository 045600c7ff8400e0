package auth

import (
	"fmt"
	"slices"
	"strings"
)

// The scopes of offer-scoped customer tokens (Customer-Facing API).
const (
	// ScopeCustomerOfferRead reads the offer, its customer data, terms links
	// and identity verification.
	ScopeCustomerOfferRead Scope = "offer:read"
	// ScopeCustomerOfferEdit changes the customer's choices and accepts.
	ScopeCustomerOfferEdit Scope = "offer:edit"
	// ScopeCustomerBrandingRead reads the seller's branding.
	ScopeCustomerBrandingRead Scope = "branding:read"
	// ScopeCustomerDiscountRead checks discount codes.
	ScopeCustomerDiscountRead Scope = "discount:read"
)

// CustomerScopes is every scope an offer-scoped token may carry.
var CustomerScopes = []Scope{ScopeCustomerOfferRead, ScopeCustomerOfferEdit, ScopeCustomerBrandingRead, ScopeCustomerDiscountRead}

// GrantCustomerScopes resolves the scope parameter of a token exchange:
// empty grants every customer scope, otherwise exactly the named ones.
func GrantCustomerScopes(requested string) ([]Scope, error) {
	fields := strings.Fields(requested)
	if len(fields) == 0 {
		return slices.Clone(CustomerScopes), nil
	}
	granted := make([]Scope, 0, len(fields))
	for _, f := range fields {
		if !slices.Contains(CustomerScopes, f) {
			return nil, fmt.Errorf("unknown scope %q", f)
		}
		if !slices.Contains(granted, f) {
			granted = append(granted, f)
		}
	}
	return granted, nil
}
