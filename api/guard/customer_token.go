package guard

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// The token exchange of RFC 8693 as the Customer-Facing API uses it.
const (
	tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
	// offerLinkTokenType is the type of the subject token: an offer's
	// shared token.
	offerLinkTokenType = "urn:tenure:params:oauth:token-type:offer-link"
	accessTokenType    = "urn:ietf:params:oauth:token-type:access_token"
	// maxExchangeParam bounds every parameter of an exchange.
	maxExchangeParam = 256
)

// offerTokenExchange issues offer-scoped customer tokens for an offer's
// shared token.
type offerTokenExchange struct {
	offers *services.CustomerOffers
	signer *links.Signer
	tokens *auth.OfferTokens
}

// exchangeResponse is the successful answer of a token exchange.
type exchangeResponse struct {
	tokenResponse
	IssuedTokenType string `json:"issued_token_type"`
}

// exchangeOfferToken answers grant_type=token-exchange: the shared token of
// the offer named by audience becomes a bearer token for that offer, while
// the offer is created.
// Customers are public clients: no client credentials are asked for.
func (t *tokenEndpoint) exchangeOfferToken(c *fiber.Ctx, form url.Values) error {
	for _, name := range []string{"subject_token", "subject_token_type", "audience"} {
		if form.Get(name) == "" {
			return t.refuse(c, fiber.StatusBadRequest, "invalid_request", name+" is required for a token exchange", false)
		}
	}
	for name, values := range form {
		if len(values) > 1 || len(values[0]) > maxExchangeParam {
			return t.refuse(c, fiber.StatusBadRequest, "invalid_request",
				name+" must be sent once, with at most 256 characters", false)
		}
		if problem := formText(name, values[0]); problem != "" {
			return t.refuse(c, fiber.StatusBadRequest, "invalid_request", problem, false)
		}
	}
	if form.Get("subject_token_type") != offerLinkTokenType {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_request", "subject_token_type must be "+offerLinkTokenType, false)
	}
	if requested := form.Get("requested_token_type"); requested != "" && requested != accessTokenType {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_request", "requested_token_type may only be "+accessTokenType, false)
	}
	scopes, err := auth.GrantCustomerScopes(form.Get("scope"))
	if err != nil {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_scope",
			err.Error()+"; offer tokens carry "+strings.Join(auth.CustomerScopes, " "), false)
	}
	x := t.offers
	// The shared token signs the offer id as Tenure writes it (package recordid).
	offerID, err := recordid.Parse(form.Get("audience"))
	if err != nil {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_grant", "audience is not an offer id", false)
	}
	switch err := x.signer.Verify(offers.TokenPurpose, offerID.String(), form.Get("subject_token")); {
	case errors.Is(err, links.ErrExpired):
		return t.refuse(c, fiber.StatusBadRequest, "invalid_grant", "the offer's link has expired", false)
	case err != nil:
		return t.refuse(c, fiber.StatusBadRequest, "invalid_grant", "subject_token is not the shared token of the offer named by audience", false)
	}
	o, err := x.offers.Find(c.UserContext(), offerID)
	if errors.Is(err, services.ErrOfferNotFound) {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_grant", "the offer no longer exists", false)
	}
	if err != nil {
		return err
	}
	row := o.Row
	// A token opens its offer only while the offer is open; once it has
	// left created, the link opens the offer's status alone, and no token
	// is issued that would open nothing.
	if offers.StandingOf(row).Reach() != offers.ReachCheckout {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_grant", fmt.Sprintf(
			"offer %s is %s: no access token is issued for it; its link opens its status alone (GET /customer/offers/%s/anonymized?token=...)",
			row.ID, row.Status, row.ID), false)
	}
	token, lifetime, err := x.tokens.Issue(row.ID, row.SellerID, scopes, row.ExpiresAt)
	if err != nil {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_grant", "the offer has expired", false)
	}
	t.logger.InfoContext(c.UserContext(), "offer token issued", "request_id", requestID(c),
		"seller_id", row.SellerID.String(), "offer_id", row.ID.String())
	return c.JSON(exchangeResponse{
		tokenResponse: tokenResponse{
			AccessToken: token, TokenType: "Bearer", ExpiresIn: int(lifetime.Seconds()), Scope: strings.Join(scopes, " "),
		},
		IssuedTokenType: accessTokenType,
	})
}
