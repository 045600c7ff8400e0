package guard_test

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
	"github.com/tenurehq/tenure/internal/testing/apitest"
)

func TestTokenExchange(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "exchange-1")

	resp := h.Exchange(t, apitest.ExchangeForm(o, ""))
	if resp.Status != http.StatusOK {
		t.Fatalf("exchange: %d %s", resp.Status, resp.Body)
	}
	if resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", resp.Header.Get("Cache-Control"))
	}
	var tok struct {
		AccessToken     string `json:"access_token"`
		TokenType       string `json:"token_type"`
		ExpiresIn       int    `json:"expires_in"`
		Scope           string `json:"scope"`
		IssuedTokenType string `json:"issued_token_type"`
	}
	resp.Decode(t, &tok)
	if tok.TokenType != "Bearer" || tok.ExpiresIn != 3600 || tok.Scope != "offer:read offer:edit branding:read discount:read" ||
		tok.IssuedTokenType != "urn:ietf:params:oauth:token-type:access_token" || tok.AccessToken == "" {
		t.Errorf("answer %+v", tok)
	}
	claims, err := auth.NewOfferTokens(h.Config.Auth.SigningKey, time.Hour).Verify(tok.AccessToken)
	if err != nil || claims.OfferID.String() != o.ID || claims.SellerID != f.Seller.Seller.ID {
		t.Errorf("the token opens its offer of its seller: %+v %v", claims, err)
	}

	resp = h.Exchange(t, apitest.ExchangeForm(o, "branding:read offer:read branding:read"))
	resp.Decode(t, &tok)
	if resp.Status != http.StatusOK || tok.Scope != "branding:read offer:read" {
		t.Errorf("a scope subset: %d %s", resp.Status, resp.Body)
	}

	// A token never outlives its offer.
	soon := f.NewCustomerOffer(t, "exchange-soon", func(p map[string]any) {
		p["expires_at"] = time.Now().Add(10 * time.Minute).UTC().Format(time.RFC3339)
	})
	resp = h.Exchange(t, apitest.ExchangeForm(soon, ""))
	resp.Decode(t, &tok)
	if resp.Status != http.StatusOK || tok.ExpiresIn > 600 || tok.ExpiresIn < 500 {
		t.Errorf("lifetime of a token for an offer expiring in 10 minutes: %d %s", resp.Status, resp.Body)
	}
}

func TestTokenExchangeRefusals(t *testing.T) {
	f := apitest.NewOfferFixture(t)
	h := f.Harness
	o := f.NewCustomerOffer(t, "refusals-1")
	other := f.NewCustomerOffer(t, "refusals-2")
	signer := links.NewSigner(h.Config.Links.SigningKey)
	expired := signer.Sign(offers.TokenPurpose, o.ID, time.Now().Add(-time.Minute))
	forged := links.NewSigner(strings.Repeat("f", 40)).Sign(offers.TokenPurpose, o.ID, time.Now().Add(time.Hour))
	wrongPurpose := signer.Sign("upload", o.ID, time.Now().Add(time.Hour))
	ghost := uuid.Must(uuid.NewV7()).String()
	ghostToken := signer.Sign(offers.TokenPurpose, ghost, time.Now().Add(time.Hour))

	with := func(changes map[string]string) url.Values {
		form := apitest.ExchangeForm(o, "")
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
		"another offer's token":  {with(map[string]string{"subject_token": other.Token}), "invalid_grant"},
		"another offer audience": {with(map[string]string{"audience": other.ID}), "invalid_grant"},
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
		"NUL in the token":       {with(map[string]string{"subject_token": o.Token + "\x00"}), "invalid_request"},
		"invalid UTF-8 audience": {with(map[string]string{"audience": "\xff" + o.ID}), "invalid_request"},
		"seller scope":           {with(map[string]string{"scope": "seller-offer:read"}), "invalid_scope"},
		"unknown scope":          {with(map[string]string{"scope": "offer:read offer:delete"}), "invalid_scope"},
		"seller's client scope":  {with(map[string]string{"scope": "client"}), "invalid_scope"},
	} {
		t.Run(name, func(t *testing.T) {
			resp := h.Exchange(t, c.form)
			var e struct {
				Error       string `json:"error"`
				Description string `json:"error_description"`
			}
			resp.Decode(t, &e)
			if resp.Status != http.StatusBadRequest || e.Error != c.error || e.Description == "" {
				t.Errorf("want 400 %s, got %d %s", c.error, resp.Status, resp.Body)
			}
			if resp.Header.Get("Cache-Control") != "no-store" {
				t.Error("refusals are not cached either")
			}
		})
	}
	resp := h.Exchange(t, with(map[string]string{"subject_token": expired}))
	if !strings.Contains(string(resp.Body), "expired") {
		t.Errorf("an expired link is told so: %s", resp.Body)
	}
	// A seller's client credentials do not turn the exchange into a seller token.
	resp = h.TokenRequest(t, f.Seller.Credentials.ClientID, f.Seller.Credentials.ClientSecret, apitest.ExchangeForm(o, ""))
	var tok struct {
		Scope string `json:"scope"`
	}
	resp.Decode(t, &tok)
	if resp.Status != http.StatusOK || tok.Scope != "offer:read offer:edit branding:read discount:read" {
		t.Errorf("an exchange with client credentials still issues an offer token: %d %s", resp.Status, resp.Body)
	}
}
