package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/auth"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/links"
)

func TestTokenExchange(t *testing.T) {
	f := newCustomerFixture(t)
	h := f.h
	o := f.newCustomerOffer(t, "exchange-1")

	resp := h.exchange(t, exchangeForm(o, ""))
	if resp.status != http.StatusOK {
		t.Fatalf("exchange: %d %s", resp.status, resp.body)
	}
	if resp.header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", resp.header.Get("Cache-Control"))
	}
	var tok struct {
		AccessToken     string `json:"access_token"`
		TokenType       string `json:"token_type"`
		ExpiresIn       int    `json:"expires_in"`
		Scope           string `json:"scope"`
		IssuedTokenType string `json:"issued_token_type"`
	}
	resp.decode(t, &tok)
	if tok.TokenType != "Bearer" || tok.ExpiresIn != 3600 || tok.Scope != "offer:read offer:edit branding:read discount:read" ||
		tok.IssuedTokenType != "urn:ietf:params:oauth:token-type:access_token" || tok.AccessToken == "" {
		t.Errorf("answer %+v", tok)
	}
	claims, err := auth.NewOfferTokens(h.cfg.Auth.SigningKey, time.Hour).Verify(tok.AccessToken)
	if err != nil || claims.OfferID.String() != o.id || claims.SellerID != f.seller.Seller.ID {
		t.Errorf("the token opens its offer of its seller: %+v %v", claims, err)
	}

	resp = h.exchange(t, exchangeForm(o, "branding:read offer:read branding:read"))
	resp.decode(t, &tok)
	if resp.status != http.StatusOK || tok.Scope != "branding:read offer:read" {
		t.Errorf("a scope subset: %d %s", resp.status, resp.body)
	}

	// A token never outlives its offer.
	soon := f.newCustomerOffer(t, "exchange-soon", func(p map[string]any) {
		p["expires_at"] = time.Now().Add(10 * time.Minute).UTC().Format(time.RFC3339)
	})
	resp = h.exchange(t, exchangeForm(soon, ""))
	resp.decode(t, &tok)
	if resp.status != http.StatusOK || tok.ExpiresIn > 600 || tok.ExpiresIn < 500 {
		t.Errorf("lifetime of a token for an offer expiring in 10 minutes: %d %s", resp.status, resp.body)
	}
}

func TestTokenExchangeRefusals(t *testing.T) {
	f := newCustomerFixture(t)
	h := f.h
	o := f.newCustomerOffer(t, "refusals-1")
	other := f.newCustomerOffer(t, "refusals-2")
	signer := links.NewSigner(h.cfg.Links.SigningKey)
	expired := signer.Sign(offers.TokenPurpose, o.id, time.Now().Add(-time.Minute))
	forged := links.NewSigner(strings.Repeat("f", 40)).Sign(offers.TokenPurpose, o.id, time.Now().Add(time.Hour))
	wrongPurpose := signer.Sign("upload", o.id, time.Now().Add(time.Hour))
	ghost := uuid.Must(uuid.NewV7()).String()
	ghostToken := signer.Sign(offers.TokenPurpose, ghost, time.Now().Add(time.Hour))

	with := func(changes map[string]string) url.Values {
		form := exchangeForm(o, "")
		for k, v := range changes {
			if v == "" {
				form.Del(k)
			} else {
				form.Set(k, v)
			}
		}
		return form
	}
	for name, c := range map[string]struct {
		form  url.Values
		error string
	}{
		"another offer's token":  {with(map[string]string{"subject_token": other.token}), "invalid_grant"},
		"another offer audience": {with(map[string]string{"audience": other.id}), "invalid_grant"},
		"expired token":          {with(map[string]string{"subject_token": expired}), "invalid_grant"},
		"forged token":           {with(map[string]string{"subject_token": forged}), "invalid_grant"},
		"token of other purpose": {with(map[string]string{"subject_token": wrongPurpose}), "invalid_grant"},
		"garbage token":          {with(map[string]string{"subject_token": "not-a-token"}), "invalid_grant"},
		"offer that never was":   {with(map[string]string{"subject_token": ghostToken, "audience": ghost}), "invalid_grant"},
		"no subject token":       {with(map[string]string{"subject_token": ""}), "invalid_request"},
		"no audience":            {with(map[string]string{"audience": ""}), "invalid_request"},
		"no subject token type":  {with(map[string]string{"subject_token_type": ""}), "invalid_request"},
		"other subject type":     {with(map[string]string{"subject_token_type": "urn:ietf:params:oauth:token-type:jwt"}), "invalid_request"},
		"other requested type":   {with(map[string]string{"requested_token_type": "urn:ietf:params:oauth:token-type:id_token"}), "invalid_request"},
		"over-long audience":     {with(map[string]string{"audience": strings.Repeat("a", 300)}), "invalid_request"},
		"NUL in the token":       {with(map[string]string{"subject_token": o.token + "\x00"}), "invalid_request"},
		"invalid UTF-8 audience": {with(map[string]string{"audience": "\xff" + o.id}), "invalid_request"},
		"seller scope":           {with(map[string]string{"scope": "seller-offer:read"}), "invalid_scope"},
		"unknown scope":          {with(map[string]string{"scope": "offer:read offer:delete"}), "invalid_scope"},
		"seller's client scope":  {with(map[string]string{"scope": "client"}), "invalid_scope"},
	} {
		t.Run(name, func(t *testing.T) {
			resp := h.exchange(t, c.form)
			var e struct {
				Error       string `json:"error"`
				Description string `json:"error_description"`
			}
			resp.decode(t, &e)
			if resp.status != http.StatusBadRequest || e.Error != c.error || e.Description == "" {
				t.Errorf("want 400 %s, got %d %s", c.error, resp.status, resp.body)
			}
			if resp.header.Get("Cache-Control") != "no-store" {
				t.Error("refusals are not cached either")
			}
		})
	}
	resp := h.exchange(t, with(map[string]string{"subject_token": expired}))
	if !strings.Contains(string(resp.body), "expired") {
		t.Errorf("an expired link is told so: %s", resp.body)
	}
	// A seller's client credentials do not turn the exchange into a seller token.
	resp = h.tokenRequest(t, f.seller.Credentials.ClientID, f.seller.Credentials.ClientSecret, exchangeForm(o, ""))
	var tok struct {
		Scope string `json:"scope"`
	}
	resp.decode(t, &tok)
	if resp.status != http.StatusOK || tok.Scope != "offer:read offer:edit branding:read discount:read" {
		t.Errorf("an exchange with client credentials still issues an offer token: %d %s", resp.status, resp.body)
	}
}
