package guard

import (
	"context"
	"errors"
	"log/slog"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
)

type offerClaimsKey struct{}

func withOfferClaims(ctx context.Context, c auth.OfferClaims) context.Context {
	return context.WithValue(ctx, offerClaimsKey{}, c)
}

// OfferClaims are the verified claims of the customer token a request
// carries, and whether it carried one.
func OfferClaims(ctx context.Context) (auth.OfferClaims, bool) {
	c, ok := ctx.Value(offerClaimsKey{}).(auth.OfferClaims)
	return c, ok
}

// customerBearer checks offer-scoped customer tokens: their signature and
// lifetime, and how far their offer reaches now (auth.Revocations, the
// mechanism that revokes seller tokens).
type customerBearer struct {
	tokens      *auth.OfferTokens
	revocations *auth.Revocations
	logger      *slog.Logger
}

// authenticate admits a customer token whose offer is open and puts its
// claims in the request context: 401 when the token is not valid or its
// offer is over (revoked), 403 OfferNotOpen while the offer is under
// review. Where credentials are optional, a request without an
// Authorization header passes unauthenticated.
func (b customerBearer) authenticate(optional bool) func(*fiber.Ctx) error {
	return func(c *fiber.Ctx) error {
		if optional && c.Get(fiber.HeaderAuthorization) == "" {
			return nil
		}
		token, err := bearerToken(c)
		if err != nil {
			return err
		}
		claims, err := b.tokens.Verify(token)
		if err != nil {
			return refusedToken(c, b.logger, err)
		}
		reach, err := b.revocations.CheckOffer(c.UserContext(), claims)
		switch {
		case errors.Is(err, auth.ErrRevoked):
			return refusedToken(c, b.logger, err)
		case err != nil:
			return err
		}
		if err := CheckReach(claims.OfferID, reach); err != nil {
			return err
		}
		c.SetUserContext(withOfferClaims(c.UserContext(), claims))
		return nil
	}
}

// revokedCustomerToken is the 401 of a customer token whose offer is over.
const revokedCustomerToken = "the access token was revoked: its offer is no longer open (accepted, declined, voided, expired or replaced by an edit); the offer's checkout link shows how it stands"

// CheckReach refuses a customer token for an offer beyond its reach
// (offers.Reach): 401 once the offer is over, 403 OfferNotOpen while it is
// under review; nil while the offer is open.
func CheckReach(offerID uuid.UUID, reach offers.Reach) error {
	switch reach {
	case offers.ReachRevoked:
		return apierror.Unauthorized(revokedCustomerToken)
	case offers.ReachStatus:
		return apierror.OfferNotOpen("offer %s is under review: its customer's tokens no longer open it; its checkout link shows how it stands (getAnonymizedOffer)", offerID)
	}
	return nil
}
