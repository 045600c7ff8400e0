package api

import (
	"context"
	"errors"
	"log/slog"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/identity"
	"github.com/tenurehq/tenure/links"
	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/recordid"
)

type offerClaimsKey struct{}

func withOfferClaims(ctx context.Context, c identity.OfferClaims) context.Context {
	return context.WithValue(ctx, offerClaimsKey{}, c)
}

func offerClaimsFrom(ctx context.Context) (identity.OfferClaims, bool) {
	c, ok := ctx.Value(offerClaimsKey{}).(identity.OfferClaims)
	return c, ok
}

// offerBearer authenticates an offer-scoped customer token and puts its
// claims in the request context. Where credentials are optional, a request
// without an Authorization header passes unauthenticated.
func offerBearer(tokens *identity.OfferTokens, logger *slog.Logger, optional bool) func(*fiber.Ctx) error {
	return func(c *fiber.Ctx) error {
		if optional && c.Get(fiber.HeaderAuthorization) == "" {
			return nil
		}
		token, err := bearerToken(c)
		if err != nil {
			return err
		}
		claims, err := tokens.Verify(token)
		if err != nil {
			return refusedToken(c, logger, err)
		}
		c.SetUserContext(withOfferClaims(c.UserContext(), claims))
		return nil
	}
}

// tokenOffer is the offer a bearer request may act on: the one its token
// was issued for. Any other offer id answers 404, like an unknown one.
func tokenOffer(ctx context.Context, rawID string) (identity.OfferClaims, error) {
	claims, ok := offerClaimsFrom(ctx)
	if !ok {
		return identity.OfferClaims{}, Unauthorized("an Authorization: Bearer <access token> header is required")
	}
	if id, err := recordid.Parse(rawID); err != nil || id != claims.OfferID {
		return identity.OfferClaims{}, NotFound("no offer %s", rawID)
	}
	return claims, nil
}

// sharedTokens check the shared token of an offer's links, which opens the
// anonymised operations of that one offer.
type sharedTokens struct {
	store  *db.Store
	signer *links.Signer
}

// offer checks token against the offer id of the path and reads the offer.
// The token signs the id as Tenure writes it (package recordid), so an id
// in upper case opens what the lower-case one does; for any other id, a
// UUID or not, the token is not the offer's.
func (s sharedTokens) offer(ctx context.Context, rawID, token string) (dbgen.Offer, error) {
	switch err := s.signer.Verify(offers.TokenPurpose, recordid.Canonical(rawID), token); {
	case errors.Is(err, links.ErrExpired):
		return dbgen.Offer{}, InvalidToken("the offer's link has expired")
	case err != nil:
		return dbgen.Offer{}, InvalidToken("the token is not the shared token of offer %s", rawID)
	}
	return findOffer(ctx, s.store.Queries, rawID, NotFound("no offer %s", rawID))
}

// findOffer reads an offer by id alone, answering missing when there is
// none.
func findOffer(ctx context.Context, q *dbgen.Queries, rawID string, missing error) (dbgen.Offer, error) {
	id, err := recordid.Parse(rawID)
	if err != nil {
		return dbgen.Offer{}, missing
	}
	row, err := q.FindOffer(ctx, id)
	if db.IsNotFound(err) {
		return dbgen.Offer{}, missing
	}
	return row, err
}

// bearerOffer reads the offer a bearer request acts on: the token's, which
// must be the one rawID names (see tokenOffer).
func bearerOffer(ctx context.Context, q *dbgen.Queries, rawID string) (dbgen.Offer, error) {
	claims, err := tokenOffer(ctx, rawID)
	if err != nil {
		return dbgen.Offer{}, err
	}
	// The token outlives no offer, but its seller may have been removed.
	row, err := q.GetOffer(ctx, dbgen.GetOfferParams{SellerID: claims.SellerID, ID: claims.OfferID})
	if db.IsNotFound(err) {
		return dbgen.Offer{}, NotFound("no offer %s", rawID)
	}
	return row, err
}
