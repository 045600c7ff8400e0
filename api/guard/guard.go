package guard

import (
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"slices"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/services"
)

// Guard is what every request passes before a handler: its request id,
// trace and access log, the limits of its head and body, the rate limits
// of what it proves, its credentials, its contract's operation and its
// Idempotency-Key. One guard serves one application.
type Guard struct {
	logger      *slog.Logger
	limits      *rateLimits
	token       *tokenEndpoint
	keys        *idempotency.Ledger
	revocations *auth.Revocations
	sellers     *auth.Tokens
	customers   customerBearer
	// holdBeforeRecord is the crash tests' fault injection point (config
	// idempotency.test_hold_before_record).
	holdBeforeRecord bool
}

// New builds the guard of a configuration over its services.
func New(cfg *config.Config, svc *services.Services, tokens *auth.Tokens, logger *slog.Logger) (*Guard, error) {
	limits, err := newRateLimits(cfg, time.Now)
	if err != nil {
		return nil, err
	}
	token, err := newTokenEndpoint(svc.Sellers, tokens, logger, limits)
	if err != nil {
		return nil, err
	}
	customerTokens := auth.NewOfferTokens(cfg.Auth.SigningKey, cfg.Auth.CustomerTokenTTL)
	token.offers = &offerTokenExchange{offers: svc.CustomerOffers, signer: links.NewSigner(cfg.Links.SigningKey), tokens: customerTokens}
	return &Guard{
		logger: logger, limits: limits, token: token, keys: svc.IdempotencyKeys, revocations: svc.Revocations, sellers: tokens,
		customers:        customerBearer{tokens: customerTokens, revocations: svc.Revocations, logger: logger},
		holdBeforeRecord: cfg.Idempotency.TestHoldBeforeRecord,
	}, nil
}

// Front are the handlers every request passes first, in order: its
// request id, its span and metrics (counted into metrics, nil counts
// nothing), its access log line, the recovery from a panic, and the limits
// of its head.
func (g *Guard) Front(metrics *telemetry.Metrics) []any {
	return []any{requestIDMiddleware, observeRequests(metrics), accessLog(g.logger), recover.New(recover.Config{
		EnableStackTrace: true,
		StackTraceHandler: func(c *fiber.Ctx, e any) {
			g.logger.Error("panic while serving a request", "request_id", requestID(c), "panic", e)
		},
	}), limitHead}
}

// ByAddress limits a route anyone may call per client address, answering
// over the limit with the contract's error object. Health checks and the
// contracts are not limited, so orchestrators always get in.
func (g *Guard) ByAddress() fiber.Handler {
	return g.limits.perAddress(refuseWithError)
}

// MountToken serves POST /oauth2/token, limited per client address.
func (g *Guard) MountToken(app *fiber.App) {
	app.Post("/oauth2/token", Named("issueToken"), g.limits.perAddress(g.token.overLimit), g.token.handle)
}

// KeepWhileServing keeps what the guard keeps while app serves: it purges
// expired idempotency keys, and its cache of revocations (credentials'
// generations and offers' standings, by which seller and customer tokens
// are revoked alike) listens to PostgreSQL's announcements.
func (g *Guard) KeepWhileServing(app *fiber.App) {
	purgeKeysWhileServing(app, g.keys, g.logger)
	listenForRevocations(app, g.revocations)
}

// PublicLimits guard the Customer-Facing operations anyone may call: per
// client address, like the other routes callable without a token, and
// small bodies only.
func (g *Guard) PublicLimits() []fiber.Handler {
	return []fiber.Handler{g.ByAddress(), limitPublicBody}
}

// Proxies are the trusted proxies, whose X-Forwarded-For names the client.
func (g *Guard) Proxies() []netip.Prefix { return g.limits.proxies }

// Routes register an API's generated handlers behind the guard: each
// route gets its contract operation's guard, and a POST route honours
// Idempotency-Key.
type Routes struct {
	idempotentRouter
	// what names the routes in the refusal of unguarded ones.
	what string
}

// Check refuses routes the contract has no operation for.
func (r *Routes) Check() error {
	if len(r.unguarded) > 0 {
		return fmt.Errorf("%s without a contract operation: %v", r.what, r.unguarded)
	}
	return nil
}

// The security schemes of customer.yaml.
const (
	offerTokenScheme        = "OAuth2Service_header_Authorization"
	providerSignatureScheme = "IdvProviderSignature"
)

// publicBodyLimit bounds the bodies of the operations anyone may call.
const publicBodyLimit = 64 << 10

// limitPublicBody refuses a body larger than publicBodyLimit.
func limitPublicBody(c *fiber.Ctx) error {
	if len(c.Body()) > publicBodyLimit {
		return fiber.ErrRequestEntityTooLarge
	}
	return c.Next()
}

// Customer guards the Customer-Facing API under the base path of its
// contract's servers[0].url, which it returns with the routes: credentials
// per the security scheme each operation names (customer tokens, and the
// signature of the identity verification provider's callbacks, checked
// with provider), and the rate limits of what they prove (see
// customerBudget), or PublicLimits in front of the operations marked
// x-tenure-public; its POST operations honour Idempotency-Key, scoped to
// the offer of the token or else the client's address. Every answer is
// in the Customer-Facing API's words (markCustomerRequest).
func (g *Guard) Customer(app *fiber.App, provider *idv.Provider) (*Routes, string, error) {
	ops, err := loadContract(openapi.Customer)
	if err != nil {
		return nil, "", err
	}
	if len(ops) == 0 || len(ops[0].route.Spec.Servers) == 0 {
		return nil, "", errors.New("the customer contract names no server base path")
	}
	base := ops[0].route.Spec.Servers[0].URL
	for _, op := range ops {
		for _, scheme := range op.schemes {
			switch scheme {
			case offerTokenScheme:
				op.authenticate = g.customers.authenticate(op.optionalAuth)
			case providerSignatureScheme:
				op.authenticate = providerSignature(provider)
			default:
				return nil, "", fmt.Errorf("the customer contract names the unknown security scheme %s", scheme)
			}
		}
		budget := g.limits.customerBudget(takesSharedToken(op))
		switch public, _ := op.route.Operation.Extensions["x-tenure-public"].(bool); {
		case public:
			op.before = g.PublicLimits()
		case slices.Contains(op.schemes, offerTokenScheme):
			// Counted once the token is verified: against its offer.
			op.budget = budget
		default:
			// Nothing to verify first: counted before the guard's work.
			op.before = []fiber.Handler{func(c *fiber.Ctx) error {
				if err := budget(c); err != nil {
					return err
				}
				return c.Next()
			}}
		}
	}
	keys := &idempotentRequests{ledger: g.keys, caller: customerCaller(g.limits.proxies), logger: g.logger}
	router := newGuardedRouter(app.Group(base, markCustomerRequest), ops)
	return &Routes{idempotentRouter: idempotentRouter{guardedRouter: router, requests: keys}, what: "customer routes"}, base, nil
}

// takesSharedToken reports whether an operation takes an offer's shared
// token (the query parameter token).
func takesSharedToken(op *operation) bool {
	return op.route.Operation.Parameters.GetByInAndName(openapi3.ParameterInQuery, "token") != nil
}

// Seller guards the Seller API: every /v1 request, routed or not, needs a
// valid seller token first and is limited per seller; its POST operations
// honour Idempotency-Key, scoped to the token's seller.
func (g *Guard) Seller(app *fiber.App) (*Routes, error) {
	ops, err := loadContract(openapi.Seller)
	if err != nil {
		return nil, err
	}
	app.Use("/v1", bearerAuth(g.sellers, g.revocations, g.logger), g.limits.perSeller)
	keys := &idempotentRequests{ledger: g.keys, caller: sellerCaller, logger: g.logger, holdBeforeRecord: g.holdBeforeRecord}
	return &Routes{idempotentRouter: idempotentRouter{guardedRouter: newGuardedRouter(app, ops), requests: keys}, what: "routes"}, nil
}
