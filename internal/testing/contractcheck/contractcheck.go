// Package contractcheck checks, for tests, that every response of Tenure's
// APIs is one its contract allows: a response to an operation of the
// published Seller API 1.0.0 against that published contract, a response
// to one of Tenure's extensions against api/openapi/seller.yaml, and a
// response of the Customer-Facing API against api/openapi/customer.yaml,
// which also demands Cache-Control: no-store on every one.
// The published contract is not part of the repository; without it the
// Seller API's extensions and the Customer-Facing API are checked.
package contractcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/tenurehq/tenure/api/openapi"
)

// errorMediaType is the media type of the contract's error object, a JSON
// document the validator has no decoder for by default.
const errorMediaType = "application/vnd.goa.error"

func init() {
	openapi3filter.RegisterBodyDecoder(errorMediaType, openapi3filter.JSONBodyDecoder)
}

// ReferencePath is where the published contract is: TENURE_REFERENCE_CONTRACT,
// or beside the checkout at ../shared/reference/seller-api-1.0.0.openapi.yaml
// from the repository root.
func ReferencePath(repoRoot string) string {
	if p := os.Getenv("TENURE_REFERENCE_CONTRACT"); p != "" {
		return p
	}
	return filepath.Join(repoRoot, "..", "shared", "reference", "seller-api-1.0.0.openapi.yaml")
}

// Checker validates responses against the contracts.
type Checker struct {
	// published routes the published operations; nil without the file.
	published routers.Router
	seller    routers.Router
	// customer routes the Customer-Facing API's operations, under its
	// base path.
	customer routers.Router
	// errorSchema and customerErrorSchema are the contracts' error
	// objects, for the statuses any operation may answer (see
	// allowedAnyway).
	errorSchema         *openapi3.SchemaRef
	customerErrorSchema *openapi3.SchemaRef
}

// New loads seller.yaml, customer.yaml and, when referencePath exists, the
// published contract. Published reports whether it did.
func New(referencePath string) (*Checker, error) {
	seller, sellerDoc, err := router(openapi.Seller)
	if err != nil {
		return nil, fmt.Errorf("seller.yaml: %w", err)
	}
	customer, customerDoc, err := router(openapi.Customer)
	if err != nil {
		return nil, fmt.Errorf("customer.yaml: %w", err)
	}
	c := &Checker{seller: seller, errorSchema: sellerDoc.Components.Schemas["Error"],
		customer: customer, customerErrorSchema: customerDoc.Components.Schemas["Error"]}
	raw, err := os.ReadFile(referencePath)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	if c.published, _, err = router(raw); err != nil {
		return nil, fmt.Errorf("%s: %w", referencePath, err)
	}
	return c, nil
}

// Published reports whether the published contract was found.
func (c *Checker) Published() bool { return c.published != nil }

// router routes the operations of a contract by their full path: a
// server URL that is a base path (customer.yaml's /customer) becomes part
// of each path, so routes are matched by path alone, whatever host a test
// calls.
func router(spec []byte) (routers.Router, *openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		return nil, nil, err
	}
	if len(doc.Servers) > 0 && strings.HasPrefix(doc.Servers[0].URL, "/") {
		base := strings.TrimSuffix(doc.Servers[0].URL, "/")
		paths := openapi3.NewPaths()
		for path, item := range doc.Paths.Map() {
			paths.Set(base+path, item)
		}
		doc.Paths = paths
	}
	doc.Servers = nil
	// The published contract's examples do not all match its schemas.
	r, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation())
	return r, doc, err
}

// Check validates one response to req. A request no operation matches
// (the token endpoint, health checks, an unknown path) is not checked.
func (c *Checker) Check(req *http.Request, status int, header http.Header, body []byte) error {
	route, params, contract := c.route(req)
	if route == nil {
		return nil
	}
	// customer.yaml's conventions: every answer, refusals included.
	if contract == customerContract && !noStore(header) {
		return fmt.Errorf("%s %s answered %d with Cache-Control %q; every customer.yaml answer is no-store", req.Method, req.URL.Path, status, header.Values("Cache-Control"))
	}
	if route.Operation.Responses.Value(strconv.Itoa(status)) == nil {
		if !allowedAnyway(route.Operation, status, body) || (contract == customerContract && status == http.StatusTooManyRequests) {
			return fmt.Errorf("%s %s answered %d, which the %s does not list for %s", req.Method, req.URL.Path, status, contract, route.Operation.OperationID)
		}
		// An exception: a published operation's body is checked against
		// seller.yaml's response when it lists one, any other as its
		// contract's error object.
		sellerRoute, sellerParams, err := c.seller.FindRoute(req)
		switch {
		case contract == customerContract:
			return checkErrorObject(c.customerErrorSchema, req, status, header, body)
		case err == nil && sellerRoute.Operation.Responses.Value(strconv.Itoa(status)) != nil:
			route, params, contract = sellerRoute, sellerParams, "seller.yaml"
		default:
			return checkErrorObject(c.errorSchema, req, status, header, body)
		}
	}
	err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	})
	if err != nil {
		return fmt.Errorf("%s %s answered %d outside the %s: %w\nbody: %.2000s", req.Method, req.URL.Path, status, contract, err, body)
	}
	return nil
}

// noStore reports whether a response forbids every cache to keep it.
func noStore(header http.Header) bool {
	for _, value := range header.Values("Cache-Control") {
		for _, directive := range strings.Split(value, ",") {
			if strings.EqualFold(strings.TrimSpace(directive), "no-store") {
				return true
			}
		}
	}
	return false
}

// customerContract names customer.yaml in messages and routes.
const customerContract = "customer.yaml"

// route finds the operation of req: in the published contract when it
// has it, else in seller.yaml, else in customer.yaml.
func (c *Checker) route(req *http.Request) (*routers.Route, map[string]string, string) {
	if c.published != nil {
		if route, params, err := c.published.FindRoute(req); err == nil {
			return route, params, "published contract"
		}
	}
	if route, params, err := c.seller.FindRoute(req); err == nil {
		return route, params, "seller.yaml"
	}
	if route, params, err := c.customer.FindRoute(req); err == nil {
		return route, params, customerContract
	}
	return nil, nil, ""
}

// allowedAnyway lists the statuses any operation may answer although its
// contract does not list them (docs/decisions/0113-status-exceptions.md):
// protocol-level refusals before the operation is handled (413 body too
// large, 414, 431, 429 rate limited), 503 when
// Temporal did not answer in time, the refusals of Idempotency-Key (409
// while the key's first request runs, 422 for a key reused with another
// request), and 400 refusing bad input of an operation whose published
// contract lists no client error at all. customer.yaml lists its 429s: every
// Customer-Facing operation is limited, and its contract says so.
func allowedAnyway(op *openapi3.Operation, status int, body []byte) bool {
	switch status {
	case http.StatusConflict, http.StatusUnprocessableEntity:
		var e struct{ Name string }
		_ = json.Unmarshal(body, &e)
		return slices.Contains(idempotencyRefusals[status], e.Name)
	case http.StatusRequestEntityTooLarge, http.StatusRequestURITooLong, http.StatusTooManyRequests,
		http.StatusRequestHeaderFieldsTooLarge, http.StatusServiceUnavailable:
		return true
	case http.StatusBadRequest:
		for _, s := range []string{"400", "404", "422"} {
			if op.Responses.Value(s) != nil {
				return false
			}
		}
		return true
	}
	return false
}

// idempotencyRefusals are the names of Idempotency-Key's refusals, which
// every POST may answer: the Seller API's, then the Customer-Facing API's.
var idempotencyRefusals = map[int][]string{
	http.StatusConflict:            {"idempotency_key_in_use", "IdempotencyKeyInUse"},
	http.StatusUnprocessableEntity: {"idempotency_key_reused", "IdempotencyKeyReused"},
}

// checkErrorObject checks an exception's body: the contract's error object.
func checkErrorObject(schema *openapi3.SchemaRef, req *http.Request, status int, header http.Header, body []byte) error {
	if ct := header.Get("Content-Type"); ct != errorMediaType {
		return fmt.Errorf("%s %s answered %d with Content-Type %q, want %s", req.Method, req.URL.Path, status, ct, errorMediaType)
	}
	value, err := openapi3filter.JSONBodyDecoder(bytes.NewReader(body), header, schema, nil)
	if err == nil {
		err = schema.Value.VisitJSON(value)
	}
	if err != nil {
		return fmt.Errorf("%s %s answered %d without the error object: %w\nbody: %.2000s", req.Method, req.URL.Path, status, err, body)
	}
	return nil
}
