package api

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/api/openapi"
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

// mountCustomerAPI serves the Customer-Facing API under the base path of
// its contract's servers[0].url, behind the contract's guard: credentials
// per the security scheme each operation names (customer tokens checked by
// bearer), and the rate limits of
// what they prove (see customerBudget), or publicLimits in front of the
// operations marked x-tenure-public; its POST operations honour
// Idempotency-Key through keys. Requests from proxies are attributed to the
// client X-Forwarded-For names.
func mountCustomerAPI(app *fiber.App, d Deps, svc *services.Services, bearer customerBearer, keys *idempotentRequests,
	limits *rateLimits, publicLimits []fiber.Handler) error {
	ops, err := loadContract(openapi.Customer)
	if err != nil {
		return err
	}
	if len(ops) == 0 || len(ops[0].route.Spec.Servers) == 0 {
		return errors.New("the customer contract names no server base path")
	}
	base := ops[0].route.Spec.Servers[0].URL
	provider := idvProvider(d.Config)
	for _, op := range ops {
		for _, scheme := range op.schemes {
			switch scheme {
			case offerTokenScheme:
				op.authenticate = bearer.authenticate(op.optionalAuth)
			case providerSignatureScheme:
				op.authenticate = providerSignature(provider)
			default:
				return fmt.Errorf("the customer contract names the unknown security scheme %s", scheme)
			}
		}
		budget := limits.customerBudget(takesSharedToken(op))
		switch public, _ := op.route.Operation.Extensions["x-tenure-public"].(bool); {
		case public:
			op.before = publicLimits
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
	shared := sharedTokens{offers: svc.CustomerOffers, signer: links.NewSigner(d.Config.Links.SigningKey)}
	attempts := discountAttempts{service: svc.DiscountAttempts}
	impl := customerAPI{
		customerOffers:    customerOffers{shared: shared, attempts: attempts, checkout: svc.CustomerOffers},
		customerBranding:  customerBranding{sellers: svc.Sellers, shared: shared},
		customerTerms:     customerTerms{offers: svc.CustomerOffers, shared: shared},
		customerDiscounts: customerDiscounts{offers: svc.CustomerOffers, attempts: attempts},
		customerIDV:       customerIDV{offers: svc.CustomerOffers, provider: provider, publicURL: d.Config.HTTP.PublicURL},
		customerLeads:     customerLeads{leads: svc.Leads, offers: svc.CustomerOffers},
	}
	if provider != nil && d.Config.IDV.Provider.URL == "" {
		sim := idvSimulation{provider: *provider, callbackURL: d.Config.HTTP.PublicURL + base + "/idv/callback",
			client: &http.Client{Timeout: 10 * time.Second}}
		app.Get(simulationPath, sim.show)
		app.Post(simulationPath, append(slices.Clone(publicLimits), sim.report)...)
	}
	router := newGuardedRouter(app.Group(base, markCustomerRequest), ops)
	customerapi.RegisterHandlers(idempotentRouter{guardedRouter: router, requests: keys}, customerapi.NewStrictHandler(impl,
		[]customerapi.StrictMiddlewareFunc{rememberClient(limits.proxies), customerRefusals}))
	if len(router.unguarded) > 0 {
		return fmt.Errorf("customer routes without a contract operation: %v", router.unguarded)
	}
	return nil
}

// takesSharedToken reports whether an operation takes an offer's shared
// token (the query parameter token).
func takesSharedToken(op *operation) bool {
	return op.route.Operation.Parameters.GetByInAndName(openapi3.ParameterInQuery, "token") != nil
}
