package guard

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/domain/idv"
)

// providerSignature authenticates a provider's callback by its
// Tenure-Signature header over the raw body.
func providerSignature(provider *idv.Provider) func(*fiber.Ctx) error {
	return func(c *fiber.Ctx) error {
		if provider == nil {
			return apierror.New(http.StatusUnauthorized, "Unauthorized", "this deployment has no identity verification provider")
		}
		switch err := provider.VerifyCallback(c.Body(), c.Get(IDVSignatureHeader)); {
		case errors.Is(err, idv.ErrStale):
			return apierror.New(http.StatusUnauthorized, "Unauthorized", "the %s header was signed more than %s away from now", IDVSignatureHeader, idv.CallbackTolerance)
		case err != nil:
			return apierror.New(http.StatusUnauthorized, "Unauthorized", "the %s header is missing or does not match the body", IDVSignatureHeader)
		}
		return nil
	}
}

// IDVSignatureHeader carries a provider callback's signature.
const IDVSignatureHeader = "Tenure-Signature"
