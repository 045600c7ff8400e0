package api

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/domain/endcustomer"
	"github.com/tenurehq/tenure/services"
)

// InvalidToken refuses an anonymised request whose shared token is wrong,
// expired or another offer's.
func InvalidToken(format string, args ...any) *Error {
	return newError(http.StatusBadRequest, "InvalidToken", format, args...)
}

// OfferNotOpen refuses a customer credential what it no longer opens: the
// offer has left created, and the shared token opens its status alone,
// its customer tokens nothing until the offer is over (offers.Reach).
func OfferNotOpen(format string, args ...any) *Error {
	return newError(http.StatusForbidden, "OfferNotOpen", format, args...)
}

// NotImplemented answers an operation this deployment cannot serve (an
// identity verification without a configured provider).
func NotImplemented(format string, args ...any) *Error {
	return newError(http.StatusNotImplemented, "not_implemented", format, args...)
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
func inCustomerWords(c *fiber.Ctx, e *Error) *Error {
	name, ok := customerNames[e.Name]
	if !ok || !isCustomerRequest(c) {
		return e
	}
	renamed := *e
	renamed.Name = name
	return &renamed
}

// invalidDiscountCode is the body of a 422 InvalidDiscountCodeError.
type invalidDiscountCode struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Type    string `json:"type"`
}

// writeCustomerError answers the errors only the Customer-Facing API has,
// whose bodies are not the error object; it reports whether err was one.
func writeCustomerError(c *fiber.Ctx, err error) (bool, error) {
	if !isCustomerRequest(c) {
		return false, nil
	}
	var code *discounts.Invalid
	if errors.As(err, &code) {
		return true, c.Status(http.StatusUnprocessableEntity).JSON(invalidDiscountCode{
			Name: "InvalidDiscountCodeError", Message: code.Message, Type: string(code.Reason),
		})
	}
	var invalid *services.ValidationFailed
	if errors.As(err, &invalid) {
		return true, c.Status(http.StatusUnprocessableEntity).JSON(customerapi.ValidationError{
			Name: "ValidationError", Message: invalid.Message,
			Errors: viewsOf(invalid.Fields, func(f endcustomer.FieldError) customerapi.FieldError {
				return customerapi.FieldError{Code: f.Code, Field: f.Field, Message: f.Message}
			}),
		})
	}
	return false, nil
}
