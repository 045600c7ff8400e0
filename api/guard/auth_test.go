package guard_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/tenurehq/tenure/api/openapi"
	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func TestTokenRoundTrip(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	resp := h.TokenRequest(t, s.Credentials.ClientID, s.Credentials.ClientSecret, url.Values{
		"grant_type": {"client_credentials"}, "scope": {"client"},
	})
	if resp.Status != http.StatusOK {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
		ExpiresIn   int    `json:"expires_in"`
		Scope       string `json:"scope"`
	}
	resp.Decode(t, &tok)
	if tok.TokenType != "Bearer" || tok.ExpiresIn != 7200 || tok.AccessToken == "" {
		t.Errorf("unexpected token response %+v", tok)
	}
	if tok.Scope != strings.Join(auth.SellerScopes, " ") {
		t.Errorf("scope=client grants every seller scope, got %q", tok.Scope)
	}
	claims, err := h.Tokens.Verify(tok.AccessToken)
	if err != nil || claims.SellerID != s.Seller.ID {
		t.Fatalf("the token names the seller: %+v %v", claims, err)
	}
	if got := h.Do(t, http.MethodGet, "/v1/shipping-method", tok.AccessToken, nil); got.Status != http.StatusOK {
		t.Errorf("the token opens the API: %d %s", got.Status, got.Body)
	}
}

func TestTokenWithFormCredentials(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	resp := h.TokenRequest(t, "", "", url.Values{
		"grant_type": {"client_credentials"}, "scope": {"seller-offer:read"},
		"client_id": {s.Credentials.ClientID}, "client_secret": {s.Credentials.ClientSecret},
	})
	if resp.Status != http.StatusOK {
		t.Fatalf("got %d %s", resp.Status, resp.Body)
	}
	var tok struct{ Scope string }
	resp.Decode(t, &tok)
	if tok.Scope != "seller-offer:read" {
		t.Errorf("a named scope is granted alone, got %q", tok.Scope)
	}
}

func TestTokenRefusals(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	id, secret := s.Credentials.ClientID, s.Credentials.ClientSecret
	grant := url.Values{"grant_type": {"client_credentials"}, "scope": {"client"}}
	cases := []struct {
		name         string
		id, secret   string
		form         url.Values
		status       int
		code         string
		basicProblem bool
	}{
		{"wrong secret", id, secret + "x", grant, 401, "invalid_client", true},
		{"unknown client", "tnr_unknown", secret, grant, 401, "invalid_client", true},
		{"no credentials", "", "", grant, 401, "invalid_client", false},
		{"password grant", id, secret, url.Values{"grant_type": {"password"}}, 400, "unsupported_grant_type", false},
		{"no grant", id, secret, url.Values{}, 400, "invalid_request", false},
		{"unknown scope", id, secret, url.Values{"grant_type": {"client_credentials"}, "scope": {"root"}}, 400, "invalid_scope", false},
		// Text PostgreSQL cannot store is refused before any lookup.
		{"NUL in a Basic client id", "tnr_\x00", secret, grant, 400, "invalid_request", false},
		{"NUL in a form client id", "", "", url.Values{"grant_type": {"client_credentials"}, "client_id": {"a\x00b"}, "client_secret": {"s"}}, 400, "invalid_request", false},
		{"invalid UTF-8 in the scope", id, secret, url.Values{"grant_type": {"client_credentials"}, "scope": {"\xff"}}, 400, "invalid_request", false},
		{"over-long secret (no secret Tenure issues is that long)", id, strings.Repeat("s", 256), grant, 401, "invalid_client", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp := h.TokenRequest(t, tc.id, tc.secret, tc.form)
			if resp.Status != tc.status {
				t.Fatalf("got %d %s", resp.Status, resp.Body)
			}
			if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", cc)
			}
			var e struct{ Error, ErrorDescription string }
			resp.Decode(t, &e)
			if e.Error != tc.code {
				t.Errorf("error %q, want %q", e.Error, tc.code)
			}
			if tc.basicProblem && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic") {
				t.Errorf("a refused Basic client is told how to authenticate")
			}
		})
	}
	t.Run("json body", func(t *testing.T) {
		resp := h.Do(t, http.MethodPost, "/oauth2/token", "", map[string]string{"grant_type": "client_credentials"})
		if resp.Status != 400 {
			t.Errorf("got %d %s", resp.Status, resp.Body)
		}
	})
}

// contractRequests lists a concrete request for every operation of the
// Seller API contract.
func contractRequests(t *testing.T) [][2]string {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(openapi.Seller)
	if err != nil {
		t.Fatal(err)
	}
	var reqs [][2]string
	for path, item := range doc.Paths.Map() {
		concrete := path
		for _, p := range []string{"{id}", "{seller_offer_reference}", "{scenario_name}"} {
			concrete = strings.ReplaceAll(concrete, p, map[string]string{
				"{id}": "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f", "{seller_offer_reference}": "ref-1", "{scenario_name}": "mark_offer_accepted",
			}[p])
		}
		for method := range item.Operations() {
			reqs = append(reqs, [2]string{method, concrete})
		}
	}
	if len(reqs) < 33 {
		t.Fatalf("the contract lists %d operations", len(reqs))
	}
	return reqs
}

func TestEveryV1RouteNeedsAToken(t *testing.T) {
	h := apitest.New(t)
	routes := append(contractRequests(t), [2]string{"GET", "/v1/no-such-route"})
	for _, r := range routes {
		resp := h.Do(t, r[0], r[1], "", nil)
		if resp.Status != http.StatusUnauthorized {
			t.Errorf("%s %s without a token: %d %s", r[0], r[1], resp.Status, resp.Body)
			continue
		}
		var msg string
		if err := json.Unmarshal(resp.Body, &msg); err != nil || !strings.HasPrefix(msg, "Unauthorized") {
			t.Errorf("%s %s: the 401 body is a JSON string, got %s", r[0], r[1], resp.Body)
		}
		if !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s %s: 401 without a Bearer challenge", r[0], r[1])
		}
	}
}

func TestBadTokensAreRefused(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	expired, _ := auth.NewTokens(h.Config.Auth.SigningKey, -time.Minute).Issue(s.Seller.ID, s.Credentials.ClientID, 0, auth.SellerScopes)
	forged, _ := auth.NewTokens(strings.Repeat("f", 40), time.Hour).Issue(s.Seller.ID, s.Credentials.ClientID, 0, auth.SellerScopes)
	for name, header := range map[string]string{
		"wrong scheme": "Token abc",
		"empty bearer": "Bearer ",
		"not a jwt":    "Bearer abc.def",
		"expired":      "Bearer " + expired,
		"forged":       "Bearer " + forged,
	} {
		t.Run(name, func(t *testing.T) {
			req := apitest.NewRequest(http.MethodGet, "/v1/shipping-method")
			req.Header.Set("Authorization", header)
			resp := h.Send(t, req)
			if resp.Status != http.StatusUnauthorized {
				t.Errorf("got %d %s", resp.Status, resp.Body)
			}
			if name == "expired" && !strings.Contains(string(resp.Body), "expired") {
				t.Errorf("an expired token is told so: %s", resp.Body)
			}
		})
	}
}

func TestEveryOperationChecksItsScope(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	// user-info:read is a seller scope no Seller API operation accepts.
	token := h.Token(t, s, auth.ScopeUserInfoRead)
	for _, r := range contractRequests(t) {
		resp := h.Do(t, r[0], r[1], token, nil)
		if resp.Status != http.StatusForbidden {
			t.Errorf("%s %s with an unrelated scope: %d %s", r[0], r[1], resp.Status, resp.Body)
			continue
		}
		var msg string
		if err := json.Unmarshal(resp.Body, &msg); err != nil || !strings.HasPrefix(msg, "InvalidScopes") {
			t.Errorf("%s %s: the 403 body is a JSON string, got %s", r[0], r[1], resp.Body)
		}
	}
}

func TestScopeIsPerOperation(t *testing.T) {
	h := apitest.New(t)
	s := h.Seller(t)
	read := h.Token(t, s, auth.ScopeShippingMethodRead)
	if resp := h.Do(t, http.MethodGet, "/v1/shipping-method", read, nil); resp.Status != http.StatusOK {
		t.Errorf("read scope lists: %d %s", resp.Status, resp.Body)
	}
	resp := h.Do(t, http.MethodPost, "/v1/shipping-method/method", read, map[string]any{"seller_shipping_method_reference": "x"})
	if resp.Status != http.StatusForbidden || !strings.Contains(string(resp.Body), auth.ScopeShippingMethodEdit) {
		t.Errorf("read scope cannot create: %d %s", resp.Status, resp.Body)
	}
	methods, err := h.Store.ListShippingMethods(context.Background(), apitest.ListAll(s))
	if err != nil || len(methods) != 0 {
		t.Errorf("a refused request wrote %d rows (%v)", len(methods), err)
	}
}
