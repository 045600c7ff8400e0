// Package apierror is the one error type of Tenure's HTTP APIs: the
// refusals the contracts describe, their constructors, and the
// translation of what the services refuse. The guard's error handler
// (api/guard) turns them into answers; anything else becomes an opaque
// fault that never shows Go, SQL or stack text.
package apierror

import (
	"fmt"
	"net/http"
)

// Error is a refusal the contracts describe: the client gets its status
// and, except for 401 and 403, the contract's error object, or Body where
// the operation refuses in a shape of its own.
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
	// Body, when set, is the JSON answered in place of the error object:
	// the refusals whose shape the operation's contract gives (an offer
	// payload's OfferError, the Customer-Facing API's ValidationError and
	// InvalidDiscountCodeError). It keeps its status.
	Body any
}

// Error is the status, the name and the message, for logs.
func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Name, e.Message) }

// New is an error of a status and a name, its message formatted.
func New(status int, name, format string, args ...any) *Error {
	return &Error{Status: status, Name: name, Message: fmt.Sprintf(format, args...)}
}

// BadRequest refuses malformed input; the message names the problem.
func BadRequest(format string, args ...any) *Error {
	return New(http.StatusBadRequest, "bad_request", format, args...)
}

// NotFound says a resource does not exist for the caller (another seller's
// resource included).
func NotFound(format string, args ...any) *Error {
	return New(http.StatusNotFound, "not_found", format, args...)
}

// Unprocessable refuses well-formed input the current state does not allow.
func Unprocessable(format string, args ...any) *Error {
	return New(http.StatusUnprocessableEntity, "unprocessable", format, args...)
}

// Conflict refuses a request that collides with one in progress.
func Conflict(format string, args ...any) *Error {
	return New(http.StatusConflict, "conflict", format, args...)
}

// TooManyProducts refuses a request that carries more products than one
// request may.
func TooManyProducts(format string, args ...any) *Error {
	return New(http.StatusRequestEntityTooLarge, "TooManyProducts", format, args...)
}

// TooManyRequests refuses work beyond what a seller may have in progress.
func TooManyRequests(format string, args ...any) *Error {
	return New(http.StatusTooManyRequests, "TooManyRequests", format, args...)
}

// Unavailable answers a change a workflow did not confirm in time; the
// client may retry (the change may have happened meanwhile).
func Unavailable(format string, args ...any) *Error {
	e := New(http.StatusServiceUnavailable, "unavailable", format, args...)
	e.Temporary, e.Timeout = true, true
	return e
}

// URITooLong refuses a request whose URL is longer than the server reads.
func URITooLong(format string, args ...any) *Error {
	return New(http.StatusRequestURITooLong, "uri_too_long", format, args...)
}

// HeadersTooLarge refuses a request whose headers are larger than the
// server reads.
func HeadersTooLarge(format string, args ...any) *Error {
	return New(http.StatusRequestHeaderFieldsTooLarge, "headers_too_large", format, args...)
}

// Unauthorized refuses a request without a valid access token.
func Unauthorized(reason string) *Error {
	e := New(http.StatusUnauthorized, "Unauthorized", "%s", reason)
	e.Header = map[string]string{"WWW-Authenticate": `Bearer realm="tenure", error="invalid_token"`}
	return e
}

// Forbidden refuses a token that lacks a scope the operation needs.
func Forbidden(reason string) *Error {
	return New(http.StatusForbidden, "InvalidScopes", "%s", reason)
}

// InvalidToken refuses an anonymised request whose shared token is wrong,
// expired or another offer's.
func InvalidToken(format string, args ...any) *Error {
	return New(http.StatusBadRequest, "InvalidToken", format, args...)
}

// OfferNotOpen refuses a customer credential what it no longer opens: the
// offer has left created, and the shared token opens its status alone,
// its customer tokens nothing until the offer is over (offers.Reach).
func OfferNotOpen(format string, args ...any) *Error {
	return New(http.StatusForbidden, "OfferNotOpen", format, args...)
}

// NotImplemented answers an operation this deployment cannot serve (an
// identity verification without a configured provider).
func NotImplemented(format string, args ...any) *Error {
	return New(http.StatusNotImplemented, "not_implemented", format, args...)
}
