package customer

import (
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// tokenOffer is the offer a bearer request may act on: the one its token
// was issued for. Any other offer id answers 404, like an unknown one.
func tokenOffer(ctx context.Context, rawID string) (auth.OfferClaims, error) {
	claims, ok := guard.OfferClaims(ctx)
	if !ok {
		return auth.OfferClaims{}, apierror.Unauthorized("an Authorization: Bearer <access token> header is required")
	}
	if id, err := recordid.Parse(rawID); err != nil || id != claims.OfferID {
		return auth.OfferClaims{}, apierror.NotFound("no offer %s", rawID)
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
		return offers.Stored{}, apierror.InvalidToken("the offer's link has expired")
	case err != nil:
		return offers.Stored{}, apierror.InvalidToken("the token is not the shared token of offer %s", rawID)
	}
	return findOffer(ctx, s.offers, rawID, apierror.NotFound("no offer %s", rawID))
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
		return offers.Stored{}, apierror.OfferNotOpen("offer %s is %s: its checkout link opens its status alone (getAnonymizedOffer)", o.Row.ID, o.Row.Status)
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
		return offers.Stored{}, apierror.NotFound("no offer %s", rawID)
	}
	if err != nil {
		return offers.Stored{}, err
	}
	// The guard checked the offer's reach a moment ago, perhaps from the
	// cache; the row just read decides, so that no answer shows the
	// customer's data of an offer that has left created meanwhile.
	if err := guard.CheckReach(o.Row.ID, offers.StandingOf(o.Row).Reach()); err != nil {
		return offers.Stored{}, err
	}
	return o, nil
}
