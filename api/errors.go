package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/refusal"
)

// Error is a refusal the Seller API contract describes: the client gets its
// status and, except for 401 and 403, the contract's error object.
type Error struct {
	Status    int
	Name      string
	Message   string
	Temporary bool
	Timeout   bool
	// Header fields sent along with the error, such as WWW-Authenticate.
	Header map[string]string
	// EveryOperation marks a refusal every operation answers alike
	// (Idempotency-Key's 409 and 422): it keeps its status even where the
	// operation's contract lists another refusal status.
	EveryOperation bool
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Name, e.Message) }

func newError(status int, name, format string, args ...any) *Error {
	return &Error{Status: status, Name: name, Message: fmt.Sprintf(format, args...)}
}

// BadRequest refuses malformed input; the message names the problem.
func BadRequest(format string, args ...any) *Error {
	return newError(http.StatusBadRequest, "bad_request", format, args...)
}

// NotFound says a resource does not exist for the caller (another seller's
// resource included).
func NotFound(format string, args ...any) *Error {
	return newError(http.StatusNotFound, "not_found", format, args...)
}

// Unprocessable refuses well-formed input the current state does not allow.
func Unprocessable(format string, args ...any) *Error {
	return newError(http.StatusUnprocessableEntity, "unprocessable", format, args...)
}

// Conflict refuses a request that collides with one in progress.
func Conflict(format string, args ...any) *Error {
	return newError(http.StatusConflict, "conflict", format, args...)
}

// TooManyProducts refuses a request that carries more products than one
// request may.
func TooManyProducts(format string, args ...any) *Error {
	return newError(http.StatusRequestEntityTooLarge, "TooManyProducts", format, args...)
}

// TooManyRequests refuses work beyond what a seller may have in progress.
func TooManyRequests(format string, args ...any) *Error {
	return newError(http.StatusTooManyRequests, "TooManyRequests", format, args...)
}

// Unavailable answers a change a workflow did not confirm in time; the
// client may retry (the change may have happened meanwhile).
func Unavailable(format string, args ...any) *Error {
	e := newError(http.StatusServiceUnavailable, "unavailable", format, args...)
	e.Temporary, e.Timeout = true, true
	return e
}

// URITooLong refuses a request whose URL is longer than the server reads.
func URITooLong(format string, args ...any) *Error {
	return newError(http.StatusRequestURITooLong, "uri_too_long", format, args...)
}

// HeadersTooLarge refuses a request whose headers are larger than the
// server reads.
func HeadersTooLarge(format string, args ...any) *Error {
	return newError(http.StatusRequestHeaderFieldsTooLarge, "headers_too_large", format, args...)
}

// Unauthorized refuses a request without a valid access token.
func Unauthorized(reason string) *Error {
	e := newError(http.StatusUnauthorized, "Unauthorized", "%s", reason)
	e.Header = map[string]string{"WWW-Authenticate": `Bearer realm="tenure", error="invalid_token"`}
	return e
}

// Forbidden refuses a token that lacks a scope the operation needs.
func Forbidden(reason string) *Error {
	return newError(http.StatusForbidden, "InvalidScopes", "%s", reason)
}

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

// errorHandler is the one place errors become responses. Go error text,
// stacks and SQL never reach the client: anything that is not a contract
// error is logged with the request id and answered as an opaque fault.
// No error response may be stored by a cache: some answer credentials.
func errorHandler(logger *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		c.Set(fiber.HeaderCacheControl, "no-store")
		if handled, werr := writeCustomerError(c, err); handled {
			return werr
		}
		var refused *refusal.Error
		if errors.As(err, &refused) && refused.Kind.OfferPayload() {
			// The offer operations' 422 is the contract's OfferError.
			return c.Status(http.StatusUnprocessableEntity).JSON(offerErrorBody(refused))
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

func asAPIError(c *fiber.Ctx, logger *slog.Logger, err error) *Error {
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return apiErr
	}
	var fiberErr *fiber.Error
	if errors.As(err, &fiberErr) {
		if name, ok := statusNames[fiberErr.Code]; ok {
			return &Error{Status: fiberErr.Code, Name: name, Message: fiberMessage(c, fiberErr)}
		}
	}
	logger.ErrorContext(c.UserContext(), "request failed", "request_id", requestID(c),
		"method", c.Method(), "path", c.Path(), "error", err)
	return &Error{Status: http.StatusInternalServerError, Name: "fault", Temporary: true,
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
		return fmt.Sprintf("the request's head is larger than this server accepts: at most %d bytes in all, %d bytes a header, %d bytes of URL", maxHeadLength, maxHeaderLength, maxURILength)
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
