package api

import (
	"context"
	"errors"
	"log/slog"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

type offerClaimsKey struct{}

func withOfferClaims(ctx context.Context, c auth.OfferClaims) context.Context {
	return context.WithValue(ctx, offerClaimsKey{}, c)
}

func offerClaimsFrom(ctx context.Context) (auth.OfferClaims, bool) {
	c, ok := ctx.Value(offerClaimsKey{}).(auth.OfferClaims)
	return c, ok
}

// customerBearer checks offer-scoped customer tokens: their signature and
// lifetime, and how far their offer reaches now (identity.Revocations, the
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
		if err := beyondReach(claims.OfferID, reach); err != nil {
			return err
		}
		c.SetUserContext(withOfferClaims(c.UserContext(), claims))
		return nil
	}
}

// revokedCustomerToken is the 401 of a customer token whose offer is over.
const revokedCustomerToken = "the access token was revoked: its offer is no longer open (accepted, declined, voided, expired or replaced by an edit); the offer's checkout link shows how it stands"

// beyondReach refuses a customer token for an offer beyond its reach
// (offers.Reach): 401 once the offer is over, 403 OfferNotOpen while it is
// under review; nil while the offer is open.
func beyondReach(offerID uuid.UUID, reach offers.Reach) error {
	switch reach {
	case offers.ReachRevoked:
		return Unauthorized(revokedCustomerToken)
	case offers.ReachStatus:
		return OfferNotOpen("offer %s is under review: its customer's tokens no longer open it; its checkout link shows how it stands (getAnonymizedOffer)", offerID)
	}
	return nil
}

// tokenOffer is the offer a bearer request may act on: the one its token
// was issued for. Any other offer id answers 404, like an unknown one.
func tokenOffer(ctx context.Context, rawID string) (auth.OfferClaims, error) {
	claims, ok := offerClaimsFrom(ctx)
	if !ok {
		return auth.OfferClaims{}, Unauthorized("an Authorization: Bearer <access token> header is required")
	}
	if id, err := recordid.Parse(rawID); err != nil || id != claims.OfferID {
		return auth.OfferClaims{}, NotFound("no offer %s", rawID)
	}
	return claims, nil
}

// sharedTokens check the shared token of an offer's links, which opens the
// anonymised operations of that one offer.
type sharedTokens struct {
	offers *services.CustomerOffers
	signer *links.Signer
}

// offer checks token against the offer id of the path and reads the
// offer, whatever its status: what the token opens of it is the caller's
// to decide (see open). The token signs the id as Tenure writes it
// (package recordid), so an id in upper case opens what the lower-case one
// does; for any other id, a UUID or not, the token is not the offer's.
func (s sharedTokens) offer(ctx context.Context, rawID, token string) (offers.Stored, error) {
	switch err := s.signer.Verify(offers.TokenPurpose, recordid.Canonical(rawID), token); {
	case errors.Is(err, links.ErrExpired):
		return offers.Stored{}, InvalidToken("the offer's link has expired")
	case err != nil:
		return offers.Stored{}, InvalidToken("the token is not the shared token of offer %s", rawID)
	}
	return findOffer(ctx, s.offers, rawID, NotFound("no offer %s", rawID))
}

// open is offer for the operations the shared token opens only while the
// offer is open: once the customer has checked out, the link opens the
// offer's status alone (403 OfferNotOpen).
func (s sharedTokens) open(ctx context.Context, rawID, token string) (offers.Stored, error) {
	o, err := s.offer(ctx, rawID, token)
	if err != nil {
		return offers.Stored{}, err
	}
	if reach := offers.StandingOf(o.Row).Reach(); reach != offers.ReachCheckout {
		return offers.Stored{}, OfferNotOpen("offer %s is %s: its checkout link opens its status alone (getAnonymizedOffer)", o.Row.ID, o.Row.Status)
	}
	return o, nil
}

// findOffer reads an offer by id alone, answering missing when there is
// none.
func findOffer(ctx context.Context, service *services.CustomerOffers, rawID string, missing error) (offers.Stored, error) {
	id, err := recordid.Parse(rawID)
	if err != nil {
		return offers.Stored{}, missing
	}
	o, err := service.Find(ctx, id)
	if errors.Is(err, services.ErrOfferNotFound) {
		return offers.Stored{}, missing
	}
	return o, err
}

// bearerOffer reads the offer a bearer request acts on: the token's, which
// must be the one rawID names (see tokenOffer).
func bearerOffer(ctx context.Context, service *services.CustomerOffers, rawID string) (offers.Stored, error) {
	claims, err := tokenOffer(ctx, rawID)
	if err != nil {
		return offers.Stored{}, err
	}
	// The token outlives no offer, but its seller may have been removed.
	o, err := service.Offers.Get(ctx, claims.SellerID, claims.OfferID)
	if errors.Is(err, services.ErrOfferNotFound) {
		return offers.Stored{}, NotFound("no offer %s", rawID)
	}
	if err != nil {
		return offers.Stored{}, err
	}
	// The guard checked the offer's reach a moment ago, perhaps from the
	// cache; the row just read decides, so that no answer shows the
	// customer's data of an offer that has left created meanwhile.
	if err := beyondReach(o.Row.ID, offers.StandingOf(o.Row).Reach()); err != nil {
		return offers.Stored{}, err
	}
	return o, nil
}
