package auth

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

func TestOfferTokensIssueAndVerify(t *testing.T) {
	tokens := NewOfferTokens(testKey, time.Hour)
	offer, seller := uuid.New(), uuid.New()
	token, ttl, err := tokens.Issue(offer, seller, []Scope{ScopeCustomerOfferRead}, time.Now().Add(72*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if ttl != time.Hour {
		t.Errorf("lifetime %s, want the configured hour", ttl)
	}
	claims, err := tokens.Verify(token)
	if err != nil {
		t.Fatal(err)
	}
	if claims.OfferID != offer || claims.SellerID != seller || !slices.Equal(claims.Scopes, []Scope{ScopeCustomerOfferRead}) {
		t.Errorf("claims %+v", claims)
	}
}

func TestOfferTokenNeverOutlivesItsOffer(t *testing.T) {
	tokens := NewOfferTokens(testKey, time.Hour)
	expiry := time.Now().Add(10 * time.Minute).Truncate(time.Second)
	token, ttl, err := tokens.Issue(uuid.New(), uuid.New(), CustomerScopes, expiry)
	if err != nil {
		t.Fatal(err)
	}
	if ttl > 10*time.Minute || ttl < 9*time.Minute {
		t.Errorf("lifetime %s, want about the offer's remaining 10m", ttl)
	}
	claims, _ := tokens.Verify(token)
	if !claims.Expiry.Equal(expiry) {
		t.Errorf("expiry %s, want the offer's %s", claims.Expiry, expiry)
	}
	if _, _, err := tokens.Issue(uuid.New(), uuid.New(), CustomerScopes, time.Now().Add(-time.Second)); err == nil {
		t.Error("a token for an expired offer was issued")
	}
}

// Seller tokens and customer tokens never pass for each other, even under
// the same configured key.
func TestOfferAndSellerTokensAreDistinct(t *testing.T) {
	sellers := NewTokens(testKey, time.Hour)
	customers := NewOfferTokens(testKey, time.Hour)
	sellerToken, _ := sellers.Issue(uuid.New(), "c", 0, SellerScopes)
	customerToken, _, _ := customers.Issue(uuid.New(), uuid.New(), CustomerScopes, time.Now().Add(time.Hour))
	if _, err := customers.Verify(sellerToken); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("a seller token opened the customer API: %v", err)
	}
	if _, err := sellers.Verify(customerToken); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("a customer token opened the Seller API: %v", err)
	}
	// Signed with the customer key but claiming the seller audience.
	forged, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"sub": uuid.NewString(), "iss": tokenIssuer, "aud": tokenAudience, "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString(customers.key)
	if _, err := sellers.Verify(forged); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("the customer key signs seller tokens: %v", err)
	}
}

func TestOfferTokenRefusals(t *testing.T) {
	tokens := NewOfferTokens(testKey, time.Hour)
	expired := NewOfferTokens(testKey, time.Hour)
	expired.now = func() time.Time { return time.Now().Add(-2 * time.Hour) }
	old, _, _ := expired.Issue(uuid.New(), uuid.New(), CustomerScopes, time.Now().Add(time.Hour))
	other, _, _ := NewOfferTokens(strings.Repeat("x", 32), time.Hour).Issue(uuid.New(), uuid.New(), CustomerScopes, time.Now().Add(time.Hour))
	for name, token := range map[string]string{"expired": old, "other key": other, "garbage": "a.b.c", "empty": ""} {
		if _, err := tokens.Verify(token); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("%s: want ErrInvalidToken, got %v", name, err)
		}
	}
}

func TestGrantCustomerScopes(t *testing.T) {
	if got, err := GrantCustomerScopes(""); err != nil || !slices.Equal(got, CustomerScopes) {
		t.Errorf("empty grants every scope: %v %v", got, err)
	}
	if got, err := GrantCustomerScopes("offer:read offer:read branding:read"); err != nil || !slices.Equal(got, []Scope{ScopeCustomerOfferRead, ScopeCustomerBrandingRead}) {
		t.Errorf("a subset is granted once each: %v %v", got, err)
	}
	for _, bad := range []string{"client", "seller-offer:read", "offer:write"} {
		if _, err := GrantCustomerScopes(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q is refused by name: %v", bad, err)
		}
	}
}
