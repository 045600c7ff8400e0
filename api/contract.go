package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/identity"
)

// operation is one operation of the contract, with what Tenure checks before
// the generated handler runs: the scopes it demands and its request shape.
type operation struct {
	id        string
	method    string
	fiberPath string
	scopes    []identity.Scope
	route     *routers.Route
	// uuidParams are the path parameters the contract declares as UUIDs.
	uuidParams []string
	// schemes are the security schemes the operation names; optionalAuth
	// is set when it also lists an empty requirement (credentials optional).
	schemes      []string
	optionalAuth bool
	// authenticate, when set, verifies the caller's credentials first;
	// before runs ahead of the guard (body and rate limits of public
	// operations).
	authenticate func(*fiber.Ctx) error
	before       []fiber.Handler
}

// loadContract parses an OpenAPI document and lists its operations.
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
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for method, op := range item.Operations() {
			security := doc.Security
			if op.Security != nil {
				security = *op.Security
			}
			var scopes []identity.Scope
			var schemes []string
			optional := false
			for _, requirement := range security {
				optional = optional || len(requirement) == 0
				for scheme, s := range requirement {
					schemes = append(schemes, scheme)
					scopes = append(scopes, s...)
				}
			}
			ops = append(ops, &operation{
				id:           op.OperationID,
				method:       method,
				fiberPath:    fiberPath(path),
				scopes:       scopes,
				route:        &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op},
				uuidParams:   uuidPathParams(op),
				schemes:      schemes,
				optionalAuth: optional,
			})
		}
	}
	return ops, nil
}

// uuidPathParams lists an operation's path parameters of format uuid,
// which the generated binding cannot read otherwise.
func uuidPathParams(op *openapi3.Operation) []string {
	var names []string
	for _, p := range op.Parameters {
		if v := p.Value; v != nil && v.In == openapi3.ParameterInPath && v.Schema != nil && v.Schema.Value != nil && v.Schema.Value.Format == "uuid" {
			names = append(names, v.Name)
		}
	}
	return names
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

var validationOptions = &openapi3filter.Options{
	AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
	SkipSettingDefaults: true,
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
// operation has an authenticator), that the token carries the operation's
// scopes, that path ids are well formed, and that the request matches the
// contract; only then does the generated handler decode it.
func (o *operation) guard(c *fiber.Ctx) error {
	if o.authenticate != nil {
		if err := o.authenticate(c); err != nil {
			return err
		}
	}
	if len(o.scopes) > 0 {
		granted, authenticated := grantedScopes(c.UserContext())
		if !authenticated && !o.optionalAuth {
			return errors.New("operation with scopes reached without verified credentials")
		}
		if authenticated && !identity.HasAll(granted, o.scopes) {
			return Forbidden(fmt.Sprintf("this operation needs the scope %s", strings.Join(o.scopes, " and ")))
		}
	}
	params := c.AllParams()
	for name, value := range params {
		if (name == "id" || strings.HasSuffix(name, "_id")) && !pathID.MatchString(value) {
			return BadRequest("path parameter %s must be 1 to 128 letters, digits or hyphens", name)
		}
	}
	for _, name := range o.uuidParams {
		if _, err := uuid.Parse(params[name]); err != nil {
			return BadRequest("path parameter %s must be a UUID", name)
		}
	}
	if err := o.checkEmptyQueryValues(c); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(c.UserContext(), c.Method(), c.OriginalURL(), bytes.NewReader(c.Body()))
	if err != nil {
		return BadRequest("the request URL cannot be parsed")
	}
	c.Request().Header.VisitAll(func(k, v []byte) { req.Header.Add(string(k), string(v)) })
	err = openapi3filter.ValidateRequest(c.UserContext(), &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      o.route,
		Options:    validationOptions,
	})
	if err != nil {
		return BadRequest("%s", describeRequestError(err))
	}
	return c.Next()
}

// checkEmptyQueryValues refuses `?page=` for a parameter that is not text:
// the validator lets empty values of optional parameters through, and the
// generated binding would then fail without naming the parameter.
func (o *operation) checkEmptyQueryValues(c *fiber.Ctx) error {
	args := c.Context().QueryArgs()
	for _, p := range o.route.Operation.Parameters {
		param := p.Value
		if param == nil || param.In != openapi3.ParameterInQuery || param.Schema == nil || param.Schema.Value == nil {
			continue
		}
		if param.Schema.Value.Type.Is(openapi3.TypeString) || !args.Has(param.Name) {
			continue
		}
		if len(args.Peek(param.Name)) == 0 {
			return BadRequest("query parameter %s must not be empty", param.Name)
		}
	}
	return nil
}

// describeRequestError says what is wrong with a request in terms of its
// fields, never quoting Go types or the schema.
func describeRequestError(err error) string {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return "the request does not match the API contract"
	}
	where := "request body"
	if p := re.Parameter; p != nil {
		where = fmt.Sprintf("%s parameter %s", p.In, p.Name)
	}
	if errors.Is(re.Err, openapi3filter.ErrInvalidRequired) {
		return where + " is required"
	}
	if errors.Is(re.Err, openapi3filter.ErrInvalidEmptyValue) {
		return where + " must not be empty"
	}
	if strings.HasPrefix(re.Reason, "header Content-Type has unexpected value") {
		return "the request body must be sent with Content-Type: application/json"
	}
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		return describeSchemaError(where, se)
	}
	var pe *openapi3filter.ParseError
	if errors.As(re.Err, &pe) {
		if re.Parameter == nil {
			return "request body is not valid JSON: " + rootCause(pe).Error()
		}
		return fmt.Sprintf("%s is %s", where, pe.Reason)
	}
	return where + " does not match the API contract"
}

func describeSchemaError(where string, se *openapi3.SchemaError) string {
	field := fieldPath(se.JSONPointer())
	reason := se.Reason
	if se.SchemaField == "required" {
		// The pointer already ends at the missing property.
		reason = "is required"
	}
	if field == "" {
		return fmt.Sprintf("%s: %s", where, reason)
	}
	if where == "request body" {
		return fmt.Sprintf("field %s: %s", field, reason)
	}
	return fmt.Sprintf("%s, field %s: %s", where, field, reason)
}

// fieldPath renders a JSON pointer as lines[0].quantity.
func fieldPath(pointer []string) string {
	var b strings.Builder
	for _, p := range pointer {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			b.WriteString("[" + p + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
