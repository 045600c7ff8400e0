package guard

import (
	"crypto/sha256"

	"github.com/gofiber/fiber/v2"
)

// customerBudget counts a Customer-Facing request against the budget of
// what it proves, once the operation's authentication has run: a valid
// bearer token against its offer's budget, from wherever it is sent; a
// shared token (takesSharedToken) against the token's budget and the
// client address's; anything else (a refused bearer token, a provider's
// callback, a request without credentials) against the client address's.
// The operations anyone may call are counted per address before their
// guard instead (PublicLimits).
func (l *rateLimits) customerBudget(takesSharedToken bool) func(*fiber.Ctx) error {
	return func(c *fiber.Ctx) error {
		if claims, ok := OfferClaims(c.UserContext()); ok {
			if q := l.offers.take(claims.OfferID.String()); !admit(c, q) {
				return overLimit("this offer", q)
			}
			return nil
		}
		var link string
		if token := c.Query("token"); takesSharedToken && token != "" {
			link = sharedTokenKey(token)
			if q := l.sharedTokens.take(link); !admit(c, q) {
				return overLimit("this offer's link", q)
			}
		}
		if q := l.addresses.take(clientAddress(c, l.proxies)); !admit(c, q) {
			if link != "" {
				l.sharedTokens.refund(link)
			}
			return overLimit("this address", q)
		}
		return nil
	}
}

// sharedTokenKey is the key of a shared token's budget: its digest, so the
// table holds no tokens and a key is small however long the value sent.
func sharedTokenKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return string(sum[:])
}
