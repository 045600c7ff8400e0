package api

import (
	"encoding/base64"
	"log/slog"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/identity"
)

// tokenEndpoint serves POST /oauth2/token: the OAuth 2.0 client credentials
// grant (RFC 6749 §4.4), with the client authenticated by HTTP Basic or by
// client_id and client_secret in the form body.
type tokenEndpoint struct {
	store  *db.Store
	tokens *identity.Tokens
	logger *slog.Logger
	// decoy is compared against when the client id is unknown, so a wrong
	// client id costs as long as a wrong secret and reveals nothing.
	decoy string
	// offers serves the token exchange of the Customer-Facing API.
	offers *offerTokenExchange
}

// tokenResponse is the successful answer of the token endpoint.
type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
	Scope       string `json:"scope"`
}

// oauthError is the error answer of RFC 6749 §5.2.
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

func newTokenEndpoint(store *db.Store, tokens *identity.Tokens, logger *slog.Logger) (*tokenEndpoint, error) {
	decoy, err := identity.NewSecret()
	if err != nil {
		return nil, err
	}
	return &tokenEndpoint{store: store, tokens: tokens, logger: logger, decoy: decoy.SecretHash}, nil
}

func (t *tokenEndpoint) handle(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("Pragma", "no-cache")

	form, err := url.ParseQuery(string(c.Body()))
	if err != nil || !strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationForm) {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_request",
			"send the parameters as an application/x-www-form-urlencoded body", false)
	}
	if form.Get("grant_type") == tokenExchangeGrant {
		return t.exchangeOfferToken(c, form)
	}
	clientID, secret, basic, ok := clientCredentials(c.Get(fiber.HeaderAuthorization), form)
	if !ok {
		return t.refuse(c, fiber.StatusUnauthorized, "invalid_client",
			"authenticate with HTTP Basic client_id:client_secret or with client_id and client_secret form fields", basic)
	}
	switch grant := form.Get("grant_type"); grant {
	case "client_credentials":
	case "":
		return t.refuse(c, fiber.StatusBadRequest, "invalid_request", "grant_type is required", false)
	default:
		return t.refuse(c, fiber.StatusBadRequest, "unsupported_grant_type",
			"grant_type must be client_credentials or "+tokenExchangeGrant, false)
	}
	scopes, err := identity.GrantScopes(form.Get("scope"))
	if err != nil {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_scope", err.Error()+`; ask for scope "client" to get every seller scope`, false)
	}

	cred, err := t.store.GetSellerCredential(c.UserContext(), clientID)
	switch {
	case db.IsNotFound(err):
		identity.SecretMatches(t.decoy, secret)
		return t.refuse(c, fiber.StatusUnauthorized, "invalid_client", "unknown client or wrong secret", basic)
	case err != nil:
		return err
	case !identity.SecretMatches(cred.SecretHash, secret):
		return t.refuse(c, fiber.StatusUnauthorized, "invalid_client", "unknown client or wrong secret", basic)
	}

	token, err := t.tokens.Issue(cred.SellerID, cred.ClientID, scopes)
	if err != nil {
		return err
	}
	t.logger.InfoContext(c.UserContext(), "access token issued", "request_id", requestID(c),
		"seller_id", cred.SellerID.String(), "client_id", cred.ClientID)
	return c.JSON(tokenResponse{
		AccessToken: token,
		TokenType:   "Bearer",
		ExpiresIn:   int(t.tokens.TTL().Seconds()),
		Scope:       strings.Join(scopes, " "),
	})
}

// clientCredentials reads the client id and secret from HTTP Basic (whose
// parts are form-encoded, RFC 6749 §2.3.1) or from the form body.
func clientCredentials(authorization string, form url.Values) (id, secret string, basic, ok bool) {
	if scheme, value, found := strings.Cut(authorization, " "); found && strings.EqualFold(scheme, "Basic") {
		raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(value))
		if err != nil {
			return "", "", true, false
		}
		user, pass, found := strings.Cut(string(raw), ":")
		if !found {
			return "", "", true, false
		}
		id, err1 := url.QueryUnescape(user)
		secret, err2 := url.QueryUnescape(pass)
		return id, secret, true, err1 == nil && err2 == nil && id != "" && secret != ""
	}
	id, secret = form.Get("client_id"), form.Get("client_secret")
	return id, secret, false, id != "" && secret != ""
}

func (t *tokenEndpoint) refuse(c *fiber.Ctx, status int, code, description string, basic bool) error {
	if basic && status == fiber.StatusUnauthorized {
		c.Set(fiber.HeaderWWWAuthenticate, `Basic realm="tenure"`)
	}
	return c.Status(status).JSON(oauthError{Error: code, Description: description})
}
