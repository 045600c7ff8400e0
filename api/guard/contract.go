package guard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/domain/auth"
)

// operation is one operation of the contract, with what Tenure checks before
// the generated handler runs: the scopes it demands and its request shape.
type operation struct {
	id        string
	method    string
	fiberPath string
	scopes    []auth.Scope
	route     *routers.Route
	// statuses are the response statuses the contract lists.
	statuses map[int]bool
	// refusalStatus answers bad input: see refusal.
	refusalStatus int
	// schemes are the security schemes the operation names; optionalAuth
	// is set when it also lists an empty requirement (credentials optional).
	schemes      []string
	optionalAuth bool
	// authenticate, when set, verifies the caller's credentials first;
	// budget, when set, then counts the request against its rate limits,
	// whether the credentials passed or not (a refusal counts too); before
	// runs ahead of the guard (body and rate limits of public operations).
	authenticate func(*fiber.Ctx) error
	budget       func(*fiber.Ctx) error
	before       []fiber.Handler
}

// loadContract parses an OpenAPI document and lists its operations. A
// contract that leaves a request field without a limit is refused: the
// guard enforces the limits the contract states, so a forgotten one would
// let any length through.
func loadContract(spec []byte) ([]*operation, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(spec)
	if err != nil {
		return nil, fmt.Errorf("parsing the contract: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the contract is not valid OpenAPI: %w", err)
	}
	var ops []*operation
	var unlimited []string
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for method, op := range item.Operations() {
			security := doc.Security
			if op.Security != nil {
				security = *op.Security
			}
			var scopes []auth.Scope
			var schemes []string
			optional := false
			for _, requirement := range security {
				optional = optional || len(requirement) == 0
				for scheme, s := range requirement {
					schemes = append(schemes, scheme)
					scopes = append(scopes, s...)
				}
			}
			for _, field := range unlimitedFields(op) {
				unlimited = append(unlimited, fmt.Sprintf("%s %s: %s", method, path, field))
			}
			statuses := listedStatuses(op)
			ops = append(ops, &operation{
				id:            op.OperationID,
				method:        method,
				fiberPath:     fiberPath(path),
				scopes:        scopes,
				route:         &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op},
				statuses:      statuses,
				refusalStatus: refusalStatus(statuses),
				schemes:       schemes,
				optionalAuth:  optional,
			})
		}
	}
	if len(unlimited) > 0 {
		return nil, fmt.Errorf("the contract states no limit for these request fields (add maxLength/maxItems or %s/%s/%s/%s): %s",
			extMaxLength, extMaxItems, extMaxProperties, extMaxKeyLength, strings.Join(unlimited, "; "))
	}
	return ops, nil
}

// fiberPath turns /v1/offers/{id} into /v1/offers/:id.
func fiberPath(openapiPath string) string {
	var b strings.Builder
	for _, seg := range strings.Split(openapiPath, "/") {
		if b.Len() > 0 || seg != "" {
			b.WriteByte('/')
		}
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			seg = ":" + seg[1:len(seg)-1]
		}
		b.WriteString(seg)
	}
	return b.String()
}

// pathID is what a resource id in a path may look like.
var pathID = regexp.MustCompile(`^[A-Za-z0-9-]{1,128}$`)

// validatedBodyKey is where the guard leaves the body it validated; the
// generated handlers bind that value (matching member names exactly)
// instead of decoding the body again. It is the key oapi-codegen's
// generated strict handlers read.
const validatedBodyKey = "x-oapi-codegen-validated-body"

// operationKey is where the guard leaves its operation, for the error
// handler to answer refusals with a status the operation's contract lists.
const operationKey = "tenure.operation"

// guardedOperation is the operation whose guard admitted or refused the
// request, nil before routing.
func guardedOperation(c *fiber.Ctx) *operation {
	op, _ := c.Locals(operationKey).(*operation)
	return op
}

// validationOptions validate parameters: the guard decodes and checks the
// body itself (see checkBody).
var validationOptions = &openapi3filter.Options{
	AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
	SkipSettingDefaults: true,
	ExcludeRequestBody:  true,
}

// guardedRouter puts each operation's guard in front of the handler the
// generated code registers for it, on the same route, so the guard that runs
// is always the one of the operation Fiber dispatches to.
type guardedRouter struct {
	fiber.Router
	guards map[string]*operation
	// unguarded lists generated routes the contract has no operation for.
	unguarded []string
}

func newGuardedRouter(r fiber.Router, ops []*operation) *guardedRouter {
	g := &guardedRouter{Router: r, guards: make(map[string]*operation, len(ops))}
	for _, op := range ops {
		g.guards[op.method+" "+op.fiberPath] = op
	}
	return g
}

func (g *guardedRouter) add(method, path string, handlers []fiber.Handler) fiber.Router {
	op, ok := g.guards[method+" "+path]
	if !ok {
		g.unguarded = append(g.unguarded, method+" "+path)
		return g.Router.Add(method, path, handlers...)
	}
	chain := append(append(append([]fiber.Handler{}, op.before...), op.guard), handlers...)
	return g.Router.Add(method, path, chain...)
}

// Get registers a guarded GET route.
func (g *guardedRouter) Get(path string, h ...fiber.Handler) fiber.Router {
	return g.add(fiber.MethodGet, path, h)
}

// Post registers a guarded POST route.
func (g *guardedRouter) Post(path string, h ...fiber.Handler) fiber.Router {
	return g.add(fiber.MethodPost, path, h)
}

// Put registers a guarded PUT route.
func (g *guardedRouter) Put(path string, h ...fiber.Handler) fiber.Router {
	return g.add(fiber.MethodPut, path, h)
}

// Patch registers a guarded PATCH route.
func (g *guardedRouter) Patch(path string, h ...fiber.Handler) fiber.Router {
	return g.add(fiber.MethodPatch, path, h)
}

// Delete registers a guarded DELETE route.
func (g *guardedRouter) Delete(path string, h ...fiber.Handler) fiber.Router {
	return g.add(fiber.MethodDelete, path, h)
}

// guard checks, in this order, the caller's credentials (when the
// operation has an authenticator), the rate limits they are counted against
// (when it has a budget), that the token carries the operation's scopes,
// that the parameters are well formed text within their limits, that they
// match the contract, and that the body does; only then does the generated
// handler bind the request.
func (o *operation) guard(c *fiber.Ctx) error {
	c.Locals(operationKey, o)
	var refused error
	if o.authenticate != nil {
		refused = o.authenticate(c)
	}
	if o.budget != nil {
		if err := o.budget(c); err != nil {
			return err
		}
	}
	if refused != nil {
		return refused
	}
	if len(o.scopes) > 0 {
		granted, authenticated := grantedScopes(c.UserContext())
		if !authenticated && !o.optionalAuth {
			return errors.New("operation with scopes reached without verified credentials")
		}
		if authenticated && !auth.HasAll(granted, o.scopes) {
			return apierror.Forbidden(fmt.Sprintf("this operation needs the scope %s", strings.Join(o.scopes, " and ")))
		}
	}
	params, err := o.pathParams(c)
	if err != nil {
		return err
	}
	if err := o.checkQuery(c); err != nil {
		return err
	}
	if err := o.checkHeaders(c); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(c.UserContext(), c.Method(), c.OriginalURL(), nil)
	if err != nil {
		return apierror.BadRequest("the request URL cannot be parsed")
	}
	c.Request().Header.VisitAll(func(k, v []byte) { req.Header.Add(string(k), string(v)) })
	err = openapi3filter.ValidateRequest(c.UserContext(), &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      o.route,
		Options:    validationOptions,
	})
	if err != nil {
		return apierror.BadRequest("%s", describeRequestError(err))
	}
	if err := o.checkBody(c); err != nil {
		return err
	}
	return c.Next()
}

// pathParams reads the path parameters as the generated binding will
// (percent-decoded) and checks them.
func (o *operation) pathParams(c *fiber.Ctx) (map[string]string, error) {
	params := c.AllParams()
	for name, raw := range params {
		where := "path parameter " + name
		value, err := url.PathUnescape(raw)
		if err != nil {
			return nil, apierror.BadRequest("%s is not correctly percent-encoded", where)
		}
		if err := checkParamValue(where, o.paramSchema(openapi3.ParameterInPath, name), value); err != nil {
			return nil, err
		}
		if (name == "id" || strings.HasSuffix(name, "_id")) && !pathID.MatchString(value) {
			return nil, apierror.BadRequest("%s must be 1 to 128 letters, digits or hyphens", where)
		}
		params[name] = value
	}
	return params, nil
}

// checkQuery reads the query string as the generated binding will and
// checks each parameter of the operation: given once, well-formed text
// within its limit, an integer in range, and not empty unless it is text
// (the validator lets empty values of optional parameters through, and the
// binding would then fail without naming the parameter).
func (o *operation) checkQuery(c *fiber.Ctx) error {
	query, err := url.ParseQuery(string(c.Request().URI().QueryString()))
	if err != nil {
		return apierror.BadRequest("the query string must be name=value pairs separated by & with %%XX escapes")
	}
	for _, p := range o.route.Operation.Parameters {
		param := p.Value
		if param == nil || param.In != openapi3.ParameterInQuery {
			continue
		}
		values, given := query[param.Name]
		if !given {
			continue
		}
		where := "query parameter " + param.Name
		if len(values) > 1 {
			return apierror.BadRequest("%s must be given once", where)
		}
		schema := o.paramSchema(openapi3.ParameterInQuery, param.Name)
		if values[0] == "" && schema != nil && !schema.Type.Is(openapi3.TypeString) {
			return apierror.BadRequest("%s must not be empty", where)
		}
		if err := checkParamValue(where, schema, values[0]); err != nil {
			return err
		}
	}
	return nil
}

// checkHeaders refuses control characters in any header (RFC 9110 allows
// none but tab) and checks the operation's header parameters like the
// others.
func (o *operation) checkHeaders(c *fiber.Ctx) error {
	var bad []byte
	c.Request().Header.VisitAll(func(k, v []byte) {
		if bad == nil && bytes.ContainsFunc(v, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
			bad = k
		}
	})
	if bad != nil {
		return apierror.BadRequest("header %q must not contain control characters", bad)
	}
	for _, p := range o.route.Operation.Parameters {
		param := p.Value
		if param == nil || param.In != openapi3.ParameterInHeader {
			continue
		}
		if v := c.Request().Header.Peek(param.Name); v != nil {
			if err := checkParamValue("header "+param.Name, o.paramSchema(openapi3.ParameterInHeader, param.Name), string(v)); err != nil {
				return err
			}
		}
	}
	return nil
}

// paramSchema is the schema of an operation's parameter, nil if it has
// none.
func (o *operation) paramSchema(in, name string) *openapi3.Schema {
	p := o.route.Operation.Parameters.GetByInAndName(in, name)
	if p == nil || p.Schema == nil {
		return nil
	}
	return p.Schema.Value
}

// checkBody decodes the body, checks its text, limits and numbers, then
// validates it against the operation's schema, and leaves the validated
// value for the generated handler to bind.
func (o *operation) checkBody(c *fiber.Ctx) error {
	rb := o.route.Operation.RequestBody
	if rb == nil || rb.Value == nil {
		return nil
	}
	raw := c.Body()
	if len(raw) == 0 {
		if rb.Value.Required {
			return apierror.BadRequest("request body is required")
		}
		return nil
	}
	media := rb.Value.Content.Get(string(c.Request().Header.ContentType()))
	if media == nil || media.Schema == nil {
		return apierror.BadRequest("the request body must be sent with Content-Type: application/json")
	}
	value, err := decodeBody(raw)
	if err != nil {
		return err
	}
	schema := media.Schema.Value
	if err := checkLimits(schema, value, nil); err != nil {
		return err
	}
	if err := schema.VisitJSON(value, openapi3.VisitAsRequest()); err != nil {
		return apierror.BadRequest("%s", describeBodyError(err))
	}
	c.Locals(validatedBodyKey, value)
	return nil
}
