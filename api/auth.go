package api

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"

	"github.com/tenurehq/tenure/identity"
)

type claimsKey struct{}

func withClaims(ctx context.Context, c identity.Claims) context.Context {
	return context.WithValue(ctx, claimsKey{}, c)
}

func claimsFrom(ctx context.Context) (identity.Claims, bool) {
	c, ok := ctx.Value(claimsKey{}).(identity.Claims)
	return c, ok
}

// sellerClaims returns the verified claims of the caller. Every /v1 handler
// runs behind bearerAuth, so their absence is a wiring fault, not a client error.
func sellerClaims(ctx context.Context) (identity.Claims, error) {
	c, ok := claimsFrom(ctx)
	if !ok {
		return identity.Claims{}, errors.New("handler reached without verified claims")
	}
	return c, nil
}

// bearerAuth admits requests that carry a valid seller access token whose
// credential has not been rotated since, and puts its claims in the request
// context, where handlers and logs find them.
func bearerAuth(tokens *identity.Tokens, revocations *identity.Revocations, logger *slog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) error {
		header := c.Get(fiber.HeaderAuthorization)
		if header == "" {
			return Unauthorized("an Authorization: Bearer <access token> header is required")
		}
		scheme, token, ok := strings.Cut(header, " ")
		token = strings.TrimSpace(token)
		if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
			return Unauthorized("the Authorization header must be of the form Bearer <access token>")
		}
		claims, err := tokens.Verify(token)
		if err != nil {
			logger.DebugContext(c.UserContext(), "access token refused", "request_id", requestID(c), "error", err)
			if errors.Is(err, jwt.ErrTokenExpired) {
				return Unauthorized("the access token has expired; request a new one at /oauth2/token")
			}
			return Unauthorized("the access token is not valid")
		}
		if err := revocations.Check(c.UserContext(), claims); errors.Is(err, identity.ErrRevoked) {
			logger.DebugContext(c.UserContext(), "access token refused", "request_id", requestID(c), "error", err)
			return Unauthorized("the access token was revoked: its client secret has been rotated; request a new one at /oauth2/token")
		} else if err != nil {
			return err
		}
		c.SetUserContext(withClaims(c.UserContext(), claims))
		return c.Next()
	}
}

// listenForRevocations keeps the revocation cache while the app listens:
// the notification connection opens with the server and closes with it.
func listenForRevocations(app *fiber.App, revocations *identity.Revocations) {
	ctx, stop := context.WithCancel(context.Background())
	var listening sync.WaitGroup
	app.Hooks().OnListen(func(fiber.ListenData) error {
		if ctx.Err() == nil {
			listening.Go(func() { revocations.Listen(ctx) })
		}
		return nil
	})
	app.Hooks().OnShutdown(func() error {
		stop()
		listening.Wait()
		return nil
	})
}
