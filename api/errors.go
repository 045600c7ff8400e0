package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/offers"
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

// errorBody is the contract's error object.
type errorBody struct {
	Name      string `json:"name"`
	ID        string `json:"id"`
	Message   string `json:"message"`
	Temporary bool   `json:"temporary"`
	Timeout   bool   `json:"timeout"`
	Fault     bool   `json:"fault"`
}

// errorMediaType is the media type the contract gives its error objects.
const errorMediaType = "application/vnd.goa.error"

// statusNames names the errors Fiber raises itself (routing, body limits).
var statusNames = map[int]string{
	http.StatusBadRequest:            "bad_request",
	http.StatusNotFound:              "not_found",
	http.StatusMethodNotAllowed:      "method_not_allowed",
	http.StatusRequestEntityTooLarge: "request_too_large",
	http.StatusUnsupportedMediaType:  "unsupported_media_type",
	http.StatusUnprocessableEntity:   "unprocessable",
	http.StatusTooManyRequests:       "too_many_requests",
	http.StatusRequestTimeout:        "timeout",
	http.StatusServiceUnavailable:    "unavailable",
}

// errorHandler is the one place errors become responses. Go error text,
// stacks and SQL never reach the client: anything that is not a contract
// error is logged with the request id and answered as an opaque fault.
func errorHandler(logger *slog.Logger) fiber.ErrorHandler {
	return func(c *fiber.Ctx, err error) error {
		if handled, werr := writeCustomerError(c, err); handled {
			return werr
		}
		var rejection *offers.Rejection
		if errors.As(err, &rejection) {
			// The offer operations' 422 is the contract's OfferError.
			refs := rejection.References
			if refs == nil {
				refs = []sellerapi.SellerProductReference{}
			}
			return c.Status(http.StatusUnprocessableEntity).JSON(sellerapi.OfferError{
				Name: rejection.Name, Message: rejection.Message, References: &refs,
			})
		}
		apiErr := inCustomerWords(c, asAPIError(c, logger, err))
		for k, v := range apiErr.Header {
			c.Set(k, v)
		}
		c.Status(apiErr.Status)
		if apiErr.Status == http.StatusUnauthorized || apiErr.Status == http.StatusForbidden {
			// The contract's 401 and 403 bodies are a bare JSON string.
			return c.JSON(apiErr.Name + ": " + apiErr.Message)
		}
		body, _ := json.Marshal(errorBody{
			Name:      apiErr.Name,
			ID:        requestID(c),
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

// fiberMessage rewrites the messages Fiber produces for routing and size
// problems into the project's words; other Fiber errors are raised by
// generated parameter binding after validation passed, and their text
// (which names Go types) is not passed on.
func fiberMessage(c *fiber.Ctx, e *fiber.Error) string {
	switch e.Code {
	case http.StatusNotFound:
		return fmt.Sprintf("no such resource: %s %s", c.Method(), c.Path())
	case http.StatusMethodNotAllowed:
		return fmt.Sprintf("method %s is not allowed on %s", c.Method(), c.Path())
	case http.StatusRequestEntityTooLarge:
		return "the request body is larger than this server accepts"
	case http.StatusUnprocessableEntity, http.StatusUnsupportedMediaType:
		return "the request body must be JSON sent with Content-Type: application/json"
	case http.StatusBadRequest:
		return "the request does not match the API contract (a value is out of range for its type)"
	}
	return http.StatusText(e.Code)
}
