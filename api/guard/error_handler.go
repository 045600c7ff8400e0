package guard

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
)

// errorMediaType is the media type the contract gives its error objects.
const errorMediaType = "application/vnd.goa.error"

// statusNames names the errors Fiber and fasthttp raise themselves
// (routing, malformed requests, size and time limits), and the refusals
// an operation's contract moves to another status.
var statusNames = map[int]string{
	http.StatusBadRequest:                  "bad_request",
	http.StatusNotFound:                    "not_found",
	http.StatusMethodNotAllowed:            "method_not_allowed",
	http.StatusRequestTimeout:              "timeout",
	http.StatusRequestEntityTooLarge:       "request_too_large",
	http.StatusRequestURITooLong:           "uri_too_long",
	http.StatusUnsupportedMediaType:        "unsupported_media_type",
	http.StatusUnprocessableEntity:         "unprocessable",
	http.StatusTooManyRequests:             "too_many_requests",
	http.StatusRequestHeaderFieldsTooLarge: "headers_too_large",
	http.StatusServiceUnavailable:          "unavailable",
}

// ErrorHandler is the one place errors become responses. Go error text,
// stacks and SQL never reach the client: anything that is not a contract
// error is logged with the request id and answered as an opaque fault.
// No error response may be stored by a cache: some answer credentials.
func ErrorHandler(logger *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		c.Set(fiber.HeaderCacheControl, "no-store")
		var shaped *apierror.Error
		if errors.As(err, &shaped) && shaped.Body != nil {
			// A refusal in the operation's own shape.
			return c.Status(shaped.Status).JSON(shaped.Body)
		}
		apiErr := asAPIError(c, logger, err)
		if op := guardedOperation(c); op != nil {
			apiErr = op.refusal(apiErr)
		}
		apiErr = inCustomerWords(c, apiErr)
		for k, v := range apiErr.Header {
			c.Set(k, v)
		}
		c.Status(apiErr.Status)
		if apiErr.Status == http.StatusUnauthorized || apiErr.Status == http.StatusForbidden {
			// The contract's 401 and 403 bodies are a bare JSON string.
			return c.JSON(apiErr.Name + ": " + apiErr.Message)
		}
		body, _ := json.Marshal(sellerapi.Error{
			Name:      apiErr.Name,
			Id:        requestID(c),
			Message:   apiErr.Message,
			Temporary: apiErr.Temporary,
			Timeout:   apiErr.Timeout,
			Fault:     apiErr.Status >= 500,
		})
		c.Set(fiber.HeaderContentType, errorMediaType)
		return c.Send(body)
	}
}

func asAPIError(c *fiber.Ctx, logger *slog.Logger, err error) *apierror.Error {
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		return apiErr
	}
	var fiberErr *fiber.Error
	if errors.As(err, &fiberErr) {
		if name, ok := statusNames[fiberErr.Code]; ok {
			return &apierror.Error{Status: fiberErr.Code, Name: name, Message: fiberMessage(c, fiberErr)}
		}
	}
	logger.ErrorContext(c.UserContext(), "request failed", "request_id", requestID(c),
		"method", c.Method(), "path", c.Path(), "error", err)
	return &apierror.Error{Status: http.StatusInternalServerError, Name: "fault", Temporary: true,
		Message: "Tenure could not complete the request; it has been logged under this error's id"}
}

// bindingParameter finds the parameter a generated binding error names.
var bindingParameter = regexp.MustCompile(`(?:parameter|ParamName) ([A-Za-z0-9_-]+)`)

// fiberMessage rewrites the messages Fiber and fasthttp produce for
// routing, size and parsing problems into the project's words. Their own
// text (which names Go types or fasthttp internals) is never passed on.
func fiberMessage(c *fiber.Ctx, e *fiber.Error) string {
	switch e.Code {
	case http.StatusNotFound:
		return fmt.Sprintf("no such resource: %s %s", c.Method(), c.Path())
	case http.StatusMethodNotAllowed:
		return fmt.Sprintf("method %s is not allowed on %s", c.Method(), c.Path())
	case http.StatusRequestTimeout:
		return "the request was not received in time"
	case http.StatusRequestEntityTooLarge:
		return "the request body is larger than this server accepts"
	case http.StatusRequestHeaderFieldsTooLarge:
		return fmt.Sprintf("the request's head is larger than this server accepts: at most %d bytes in all, %d bytes a header, %d bytes of URL", MaxHeadLength, maxHeaderLength, maxURILength)
	case http.StatusUnprocessableEntity, http.StatusUnsupportedMediaType:
		return "the request body must be JSON sent with Content-Type: application/json"
	case http.StatusBadRequest:
		if guardedOperation(c) == nil {
			// Raised by fasthttp before routing: the bytes are not HTTP.
			return "the request is not a well-formed HTTP/1.1 request"
		}
		// Raised by the generated binding after the guard admitted the
		// request, which the guard's checks are meant to make impossible.
		if m := bindingParameter.FindStringSubmatch(e.Message); m != nil {
			return fmt.Sprintf("parameter %s has a value this operation cannot read", m[1])
		}
		return "the request body has a value this operation cannot read"
	}
	return http.StatusText(e.Code)
}

// customerNames are the Customer-Facing API's names of the errors both
// APIs raise.
var customerNames = map[string]string{
	"bad_request":   "BadRequest",
	"not_found":     "NotFound",
	"unprocessable": "Unprocessable",
	"conflict":      "Conflict",
	// Idempotency-Key's own refusals (docs/calling-the-api.md, "Retries").
	"idempotency_key_in_use": "IdempotencyKeyInUse",
	"idempotency_key_reused": "IdempotencyKeyReused",
}

type customerRequestKey struct{}

// markCustomerRequest notes that a request is the Customer-Facing API's, so
// the error handler answers it in that API's words, even for routes that
// do not exist; and marks every answer no-store, as the token endpoint's:
// they carry an offer's data, the customer's own included, which no
// browser or proxy cache may keep.
func markCustomerRequest(c *fiber.Ctx) error {
	c.Locals(customerRequestKey{}, true)
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Next()
}

func isCustomerRequest(c *fiber.Ctx) bool {
	marked, _ := c.Locals(customerRequestKey{}).(bool)
	return marked
}

// inCustomerWords renames an error for the Customer-Facing API.
func inCustomerWords(c *fiber.Ctx, e *apierror.Error) *apierror.Error {
	name, ok := customerNames[e.Name]
	if !ok || !isCustomerRequest(c) {
		return e
	}
	renamed := *e
	renamed.Name = name
	return &renamed
}
