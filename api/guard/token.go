package guard

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/services"
)

// tokenEndpoint serves POST /oauth2/token: the OAuth 2.0 client credentials
// grant (RFC 6749 §4.4), with the client authenticated by HTTP Basic or by
// client_id and client_secret in the form body.
type tokenEndpoint struct {
	sellers *services.Sellers
	tokens  *auth.Tokens
	logger  *slog.Logger
	// decoy is compared against when the client id is unknown, so a wrong
	// client id costs as long as a wrong secret and reveals nothing.
	decoy    string
	throttle *credentialThrottle
	limits   *rateLimits
	// offers serves the token exchange of the Customer-Facing API.
	offers *offerTokenExchange
}

// maxClientIDLength is far above the length of the client ids Tenure issues
// (28 characters): a longer one is refused unread, and the throttle's keys
// stay small.
const maxClientIDLength = 64

// compareSecret is the bcrypt comparison of a client secret; tests count
// its calls.
var compareSecret = auth.SecretMatches

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

func newTokenEndpoint(sellers *services.Sellers, tokens *auth.Tokens, logger *slog.Logger, limits *rateLimits) (*tokenEndpoint, error) {
	decoy, err := auth.NewSecret()
	if err != nil {
		return nil, err
	}
	return &tokenEndpoint{sellers: sellers, tokens: tokens, logger: logger, decoy: decoy.SecretHash,
		throttle: newCredentialThrottle(time.Now), limits: limits}, nil
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
		// Counted against the budget of the shared token it exchanges, as
		// the anonymised operations are (the address's was counted before).
		if q := t.limits.sharedTokens.take(sharedTokenKey(form.Get("subject_token"))); !admit(c, q) {
			return t.sharedTokenOverLimit(c, q)
		}
		return t.exchangeOfferToken(c, form)
	}
	clientID, secret, basic, ok := clientCredentials(c.Get(fiber.HeaderAuthorization), form)
	if !ok {
		return t.refuse(c, fiber.StatusUnauthorized, "invalid_client",
			"authenticate with HTTP Basic client_id:client_secret or with client_id and client_secret form fields", basic)
	}
	if problem := credentialText(clientID, secret, form); problem != "" {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_request", problem, false)
	}
	switch grant := form.Get("grant_type"); grant {
	case "client_credentials":
	case "":
		return t.refuse(c, fiber.StatusBadRequest, "invalid_request", "grant_type is required", false)
	default:
		return t.refuse(c, fiber.StatusBadRequest, "unsupported_grant_type",
			"grant_type must be client_credentials or "+tokenExchangeGrant, false)
	}
	scopes, err := auth.GrantScopes(form.Get("scope"))
	if err != nil {
		return t.refuse(c, fiber.StatusBadRequest, "invalid_scope", err.Error()+`; ask for scope "client" to get every seller scope`, false)
	}

	cred, err := t.authenticate(c, clientID, secret, basic)
	if cred == nil {
		return err
	}

	token, err := t.tokens.Issue(cred.SellerID, cred.ID, cred.Generation, scopes)
	if err != nil {
		return err
	}
	t.logger.InfoContext(c.UserContext(), "access token issued", "request_id", requestID(c),
		"seller_id", cred.SellerID.String(), "client_id", cred.ID)
	return c.JSON(tokenResponse{
		AccessToken: token,
		TokenType:   "Bearer",
		ExpiresIn:   int(t.tokens.TTL().Seconds()),
		Scope:       strings.Join(scopes, " "),
	})
}

// authenticate checks the client's secret, within the budgets of the
// credential throttle. It returns the client's credential, or nil when it
// has answered the request itself (a refusal, or the error to answer with).
func (t *tokenEndpoint) authenticate(c *fiber.Ctx, clientID, secret string, basic bool) (*auth.Client, error) {
	address := clientAddress(c, t.limits.proxies)
	if wait, ok := t.throttle.attempt(clientID, address); !ok {
		t.logger.WarnContext(c.UserContext(), "client authentication throttled", "request_id", requestID(c),
			"client_id", clientID, "address", address)
		c.Set(fiber.HeaderRetryAfter, strconv.Itoa(Seconds(wait)))
		return nil, t.refuse(c, fiber.StatusTooManyRequests, "temporarily_unavailable", fmt.Sprintf(
			"too many failed authentications of this client from your address; retry after %d seconds", Seconds(wait)), false)
	}
	if len(clientID) > maxClientIDLength {
		return nil, t.refuse(c, fiber.StatusUnauthorized, "invalid_client", "unknown client or wrong secret", basic)
	}
	cred, err := t.sellers.Client(c.UserContext(), clientID)
	known := err == nil
	if err != nil && !errors.Is(err, services.ErrUnknownClient) {
		t.throttle.withdraw(clientID, address)
		return nil, err
	}
	hash := t.decoy
	if known {
		hash = cred.SecretHash
	}
	matched, compared := t.throttle.compare(func() bool { return compareSecret(hash, secret) })
	if !compared {
		t.throttle.withdraw(clientID, address)
		c.Set(fiber.HeaderRetryAfter, "1")
		return nil, t.refuse(c, fiber.StatusTooManyRequests, "temporarily_unavailable",
			"the token endpoint is busy; retry after 1 second", false)
	}
	if !known || !matched {
		return nil, t.refuse(c, fiber.StatusUnauthorized, "invalid_client", "unknown client or wrong secret", basic)
	}
	t.throttle.succeeded(clientID, address)
	return &cred, nil
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

// overLimit answers a client address over its request limit in the token
// endpoint's own error form.
func (t *tokenEndpoint) overLimit(c *fiber.Ctx, q quota) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	c.Set("Pragma", "no-cache")
	return t.refuse(c, fiber.StatusTooManyRequests, "temporarily_unavailable", fmt.Sprintf(
		"too many requests from your address (%d at most in a row); retry after %d seconds", q.limit, Seconds(q.retryAfter)), false)
}

// sharedTokenOverLimit answers a token exchange whose shared token is over
// its limit, and gives the client address its request back.
func (t *tokenEndpoint) sharedTokenOverLimit(c *fiber.Ctx, q quota) error {
	t.limits.addresses.refund(clientAddress(c, t.limits.proxies))
	return t.refuse(c, fiber.StatusTooManyRequests, "temporarily_unavailable", fmt.Sprintf(
		"too many requests with this offer's link (%d at most in a row); retry after %d seconds", q.limit, Seconds(q.retryAfter)), false)
}

// credentialText says what is wrong with the text of the credentials or
// the form fields the endpoint reads, "" when nothing is: none may hold a
// NUL character or invalid UTF-8 (the client id is looked up in
// PostgreSQL). Over-long credentials are unknown ones (authenticate).
func credentialText(clientID, secret string, form url.Values) string {
	texts := url.Values{"client_id": {clientID}, "client_secret": {secret}, "grant_type": form["grant_type"], "scope": form["scope"]}
	for _, name := range []string{"client_id", "client_secret", "grant_type", "scope"} {
		for _, v := range texts[name] {
			if problem := formText(name, v); problem != "" {
				return problem
			}
		}
	}
	return ""
}

// formText says what is wrong with the text of one form field, "" when
// nothing is (see checkParamText).
func formText(name, v string) string {
	var refused *apierror.Error
	if errors.As(checkParamText(name, v), &refused) {
		return refused.Message
	}
	return ""
}

func (t *tokenEndpoint) refuse(c *fiber.Ctx, status int, code, description string, basic bool) error {
	if basic && status == fiber.StatusUnauthorized {
		c.Set(fiber.HeaderWWWAuthenticate, `Basic realm="tenure"`)
	}
	return c.Status(status).JSON(oauthError{Error: code, Description: description})
}
