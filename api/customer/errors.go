package customer

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/domain/endcustomer"
	"github.com/tenurehq/tenure/services"
)

// invalidDiscountCode is the body of a 422 InvalidDiscountCodeError.
type invalidDiscountCode struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Type    string `json:"type"`
}

// customerRefusals answers the refusals only the Customer-Facing API has,
// whose bodies are not the error object: a discount code that cannot be
// applied (InvalidDiscountCodeError) and bad customer data
// (ValidationError), whichever operation's handler meets them.
func customerRefusals(f customerapi.StrictHandlerFunc, _ string) customerapi.StrictHandlerFunc {
	return func(c *fiber.Ctx, args any) (any, error) {
		response, err := f(c, args)
		return response, customerRefusal(err)
	}
}

// customerRefusal is err in the Customer-Facing API's own shape, when it
// has one.
func customerRefusal(err error) error {
	var code *discounts.Invalid
	if errors.As(err, &code) {
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Name: "InvalidDiscountCodeError", Message: code.Message,
			Body: invalidDiscountCode{Name: "InvalidDiscountCodeError", Message: code.Message, Type: string(code.Reason)}}
	}
	var invalid *services.ValidationFailed
	if errors.As(err, &invalid) {
		return &apierror.Error{Status: http.StatusUnprocessableEntity, Name: "ValidationError", Message: invalid.Message,
			Body: customerapi.ValidationError{
				Name: "ValidationError", Message: invalid.Message,
				Errors: views.Of(invalid.Fields, func(f endcustomer.FieldError) customerapi.FieldError {
					return customerapi.FieldError{Code: f.Code, Field: f.Field, Message: f.Message}
				}),
			}}
	}
	return err
}
