// Package contractcheck checks, for tests, that every response of the
// Seller API is one its contract allows: a response to an operation of the
// published Seller API 1.0.0 against that published contract, a response
// to one of Tenure's extensions against api/openapi/seller.yaml. The
// published contract is not part of the repository; without it only the
// extensions are checked.
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
	"strconv"

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
	// errorSchema is the contract's error object, for the statuses any
	// operation may answer (see allowedAnyway).
	errorSchema *openapi3.SchemaRef
}

// New loads seller.yaml and, when referencePath exists, the published
// contract. Published reports whether it did.
func New(referencePath string) (*Checker, error) {
	seller, sellerDoc, err := router(openapi.Seller)
	if err != nil {
		return nil, fmt.Errorf("seller.yaml: %w", err)
	}
	c := &Checker{seller: seller, errorSchema: sellerDoc.Components.Schemas["Error"]}
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

func router(spec []byte) (routers.Router, *openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(spec)
	if err != nil {
		return nil, nil, err
	}
	// Routes are matched by path alone, whatever host a test calls.
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
	if route.Operation.Responses.Value(strconv.Itoa(status)) == nil {
		if !allowedAnyway(route.Operation, status, body) {
			return fmt.Errorf("%s %s answered %d, which the %s does not list for %s", req.Method, req.URL.Path, status, contract, route.Operation.OperationID)
		}
		// An exception: its body is checked against seller.yaml's
		// response when it lists one, else as the error object.
		if sellerRoute, sellerParams, err := c.seller.FindRoute(req); err == nil && sellerRoute.Operation.Responses.Value(strconv.Itoa(status)) != nil {
			route, params, contract = sellerRoute, sellerParams, "seller.yaml"
		} else {
			return c.checkErrorObject(req, status, header, body)
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

// route finds the operation of req: in the published contract when it
// has it, else in seller.yaml.
func (c *Checker) route(req *http.Request) (*routers.Route, map[string]string, string) {
	if c.published != nil {
		if route, params, err := c.published.FindRoute(req); err == nil {
			return route, params, "published contract"
		}
	}
	if route, params, err := c.seller.FindRoute(req); err == nil {
		return route, params, "seller.yaml"
	}
	return nil, nil, ""
}

// allowedAnyway lists the statuses any operation may answer although its
// contract does not list them (docs/decisions.md, "Responses inside the
// published contract"): protocol-level refusals before the operation is
// handled (413 body too large, 414, 431, 429 rate limited), 503 when
// Temporal did not answer in time, the refusals of Idempotency-Key (409
// while the key's first request runs, 422 for a key reused with another
// request), and 400 refusing bad input of an operation whose published
// contract lists no client error at all.
func allowedAnyway(op *openapi3.Operation, status int, body []byte) bool {
	switch status {
	case http.StatusConflict, http.StatusUnprocessableEntity:
		var e struct{ Name string }
		_ = json.Unmarshal(body, &e)
		return e.Name == idempotencyRefusals[status]
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
// every POST may answer.
var idempotencyRefusals = map[int]string{
	http.StatusConflict:            "idempotency_key_in_use",
	http.StatusUnprocessableEntity: "idempotency_key_reused",
}

// checkErrorObject checks an exception's body: the contract's error object.
func (c *Checker) checkErrorObject(req *http.Request, status int, header http.Header, body []byte) error {
	if ct := header.Get("Content-Type"); ct != errorMediaType {
		return fmt.Errorf("%s %s answered %d with Content-Type %q, want %s", req.Method, req.URL.Path, status, ct, errorMediaType)
	}
	value, err := openapi3filter.JSONBodyDecoder(bytes.NewReader(body), header, c.errorSchema, nil)
	if err == nil {
		err = c.errorSchema.Value.VisitJSON(value)
	}
	if err != nil {
		return fmt.Errorf("%s %s answered %d without the error object: %w\nbody: %.2000s", req.Method, req.URL.Path, status, err, body)
	}
	return nil
}
