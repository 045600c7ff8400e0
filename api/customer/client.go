package customer

import (
	"context"
	"net/netip"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/api/guard"
)

type clientKey struct{}

// rememberClient keeps the client's address (see guard.ClientIP) in the request
// context of the customer operations: for the records of unauthenticated
// callers, and for the budget of failed discount codes.
func rememberClient(proxies []netip.Prefix) customerapi.StrictMiddlewareFunc {
	return func(f customerapi.StrictHandlerFunc, _ string) customerapi.StrictHandlerFunc {
		return func(c *fiber.Ctx, args any) (any, error) {
			if ip, ok := guard.ClientIP(c, proxies); ok {
				c.SetUserContext(context.WithValue(c.UserContext(), clientKey{}, ip))
			}
			return f(c, args)
		}
	}
}

// leadAddress is the client address rememberClient kept, "" if none.
func leadAddress(ctx context.Context) string {
	if ip, ok := ctx.Value(clientKey{}).(netip.Addr); ok {
		return ip.String()
	}
	return ""
}

// countedAddress is the client address rememberClient kept, as the rate
// limits count it.
func countedAddress(ctx context.Context) string {
	if ip, ok := ctx.Value(clientKey{}).(netip.Addr); ok {
		return guard.CountedAs(ip)
	}
	return guard.UnknownAddress
}
