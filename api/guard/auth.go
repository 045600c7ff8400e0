package guard

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"
	"github.com/golang-jwt/jwt/v5"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/domain/auth"
)

type claimsKey struct{}

func withClaims(ctx context.Context, c auth.Claims) context.Context {
	return context.WithValue(ctx, claimsKey{}, c)
}

func claimsFrom(ctx context.Context) (auth.Claims, bool) {
	c, ok := ctx.Value(claimsKey{}).(auth.Claims)
	return c, ok
}

// SellerClaims returns the verified claims of the caller. Every /v1 handler
// runs behind bearerAuth, so their absence is a wiring fault, not a client error.
func SellerClaims(ctx context.Context) (auth.Claims, error) {
	c, ok := claimsFrom(ctx)
	if !ok {
		return auth.Claims{}, errors.New("handler reached without verified claims")
	}
	return c, nil
}

// bearerAuth admits requests that carry a valid seller access token whose
// credential has not been rotated since, and puts its claims in the request
// context, where handlers and logs find them.
func bearerAuth(tokens *auth.Tokens, revocations *auth.Revocations, logger *slog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) error {
		token, err := bearerToken(c)
		if err != nil {
			return err
		}
		claims, err := tokens.Verify(token)
		if err != nil {
			return refusedToken(c, logger, err)
		}
		if err := revocations.Check(c.UserContext(), claims); errors.Is(err, auth.ErrRevoked) {
			return refusedToken(c, logger, err)
		} else if err != nil {
			return err
		}
		c.SetUserContext(withClaims(c.UserContext(), claims))
		return c.Next()
	}
}

// listenForRevocations keeps the revocation cache while the app listens:
// the notification connection opens with the server and closes with it.
func listenForRevocations(app *fiber.App, revocations *auth.Revocations) {
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

// bearerToken reads the token of an Authorization: Bearer header.
func bearerToken(c *fiber.Ctx) (string, error) {
	header := c.Get(fiber.HeaderAuthorization)
	if header == "" {
		return "", apierror.Unauthorized("an Authorization: Bearer <access token> header is required")
	}
	scheme, token, ok := strings.Cut(header, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", apierror.Unauthorized("the Authorization header must be of the form Bearer <access token>")
	}
	return token, nil
}

// refusedToken is the 401 of a token that failed verification; why it
// failed goes to the debug log only.
func refusedToken(c *fiber.Ctx, logger *slog.Logger, err error) error {
	logger.DebugContext(c.UserContext(), "access token refused", "request_id", requestID(c), "error", err)
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return apierror.Unauthorized("the access token has expired; request a new one at /oauth2/token")
	case errors.Is(err, auth.ErrOfferClosed):
		return apierror.Unauthorized(revokedCustomerToken)
	case errors.Is(err, auth.ErrRevoked):
		return apierror.Unauthorized("the access token was revoked: its client secret has been rotated; request a new one at /oauth2/token")
	}
	return apierror.Unauthorized("the access token is not valid")
}
