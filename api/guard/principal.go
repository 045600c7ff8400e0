package guard

import "context"

// grantedScopes are the scopes of whoever the request authenticated as (a
// seller's client or an offer's customer), and whether it did.
func grantedScopes(ctx context.Context) ([]string, bool) {
	if c, ok := claimsFrom(ctx); ok {
		return c.Scopes, true
	}
	if c, ok := OfferClaims(ctx); ok {
		return c.Scopes, true
	}
	return nil, false
}
