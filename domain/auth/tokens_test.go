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

const testKey = "0123456789abcdef0123456789abcdef"

func TestIssueAndVerify(t *testing.T) {
	tokens := NewTokens(testKey, 2*time.Hour)
	seller := uuid.New()
	token, err := tokens.Issue(seller, "tnr_client", 3, []Scope{ScopeOfferRead, ScopeCatalogRead})
	if err != nil {
		t.Fatal(err)
	}
	claims, err := tokens.Verify(token)
	if err != nil {
		t.Fatal(err)
	}
	if claims.SellerID != seller || claims.ClientID != "tnr_client" || claims.Generation != 3 {
		t.Errorf("claims lost the seller, client or generation: %+v", claims)
	}
	if !slices.Equal(claims.Scopes, []Scope{ScopeOfferRead, ScopeCatalogRead}) {
		t.Errorf("scopes %v", claims.Scopes)
	}
	if d := time.Until(claims.Expiry); d < 119*time.Minute || d > 121*time.Minute {
		t.Errorf("expiry is %s away, want 2h", d)
	}
}

func TestTokensWithoutAGenerationAreOfTheFirst(t *testing.T) {
	// Tokens issued before generations existed carry no "gen" claim; they
	// stay valid until their credential's first rotation.
	seller := uuid.New()
	old, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"sub": seller.String(), "iss": tokenIssuer, "aud": tokenAudience, "client_id": "tnr_old",
		"exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString([]byte(testKey))
	if err != nil {
		t.Fatal(err)
	}
	claims, err := NewTokens(testKey, time.Hour).Verify(old)
	if err != nil || claims.Generation != 0 || claims.ClientID != "tnr_old" {
		t.Errorf("got %+v, %v", claims, err)
	}
}

func TestVerifyRefusesUntrustworthyTokens(t *testing.T) {
	tokens := NewTokens(testKey, time.Hour)
	seller := uuid.New()
	good, _ := tokens.Issue(seller, "c", 0, SellerScopes)

	expired, _ := NewTokens(testKey, -time.Minute).Issue(seller, "c", 0, SellerScopes)
	forged, _ := NewTokens(strings.Repeat("x", 32), time.Hour).Issue(seller, "c", 0, SellerScopes)
	unsigned, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{
		"sub": seller.String(), "iss": tokenIssuer, "aud": tokenAudience, "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	otherAudience, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"sub": seller.String(), "iss": tokenIssuer, "aud": "customer-api", "exp": time.Now().Add(time.Hour).Unix(),
	}).SignedString([]byte(testKey))
	noExpiry, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"sub": seller.String(), "iss": tokenIssuer, "aud": tokenAudience,
	}).SignedString([]byte(testKey))
	parts := strings.Split(good, ".")
	tampered := parts[0] + "." + parts[1] + "x." + parts[2]

	for name, token := range map[string]string{
		"expired": expired, "forged": forged, "unsigned": unsigned, "other audience": otherAudience,
		"no expiry": noExpiry, "tampered": tampered, "malformed": "not.a.jwt", "empty": "",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := tokens.Verify(token)
			if !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("want ErrInvalidToken, got %v", err)
			}
		})
	}
	if _, err := tokens.Verify(expired); !errors.Is(err, jwt.ErrTokenExpired) {
		t.Errorf("an expired token says so: %v", err)
	}
}

func TestGrantScopes(t *testing.T) {
	for _, requested := range []string{"", "client", "client seller-offer:read"} {
		got, err := GrantScopes(requested)
		if err != nil || !slices.Equal(got, SellerScopes) {
			t.Errorf("%q grants every seller scope, got %v, %v", requested, got, err)
		}
	}
	got, err := GrantScopes("seller-offer:read seller-offer:read seller-catalog:edit")
	if err != nil || !slices.Equal(got, []Scope{ScopeOfferRead, ScopeCatalogEdit}) {
		t.Errorf("named scopes are granted once each, got %v, %v", got, err)
	}
	if _, err := GrantScopes("seller-offer:read admin"); err == nil || !strings.Contains(err.Error(), `"admin"`) {
		t.Errorf("an unknown scope is refused by name, got %v", err)
	}
}

func TestHasAll(t *testing.T) {
	if !HasAll([]Scope{ScopeOfferRead, ScopeOfferEdit}, []Scope{ScopeOfferEdit}) {
		t.Error("granted scope not found")
	}
	if HasAll([]Scope{ScopeOfferRead}, []Scope{ScopeOfferEdit}) {
		t.Error("missing scope accepted")
	}
	if !HasAll(nil, nil) {
		t.Error("no requirement is always met")
	}
}

func TestCredentials(t *testing.T) {
	c, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.ClientID, "tnr_") || !strings.HasPrefix(c.ClientSecret, "tsk_") {
		t.Errorf("unexpected credential shapes: %s %s", c.ClientID, c.ClientSecret)
	}
	if strings.Contains(c.SecretHash, c.ClientSecret) {
		t.Error("the hash must not contain the secret")
	}
	if !SecretMatches(c.SecretHash, c.ClientSecret) {
		t.Error("the secret does not match its own hash")
	}
	if SecretMatches(c.SecretHash, c.ClientSecret+"x") || SecretMatches(c.SecretHash, "") {
		t.Error("a wrong secret matches")
	}
	if SecretMatches(c.SecretHash, c.ClientSecret+strings.Repeat("x", 80)) {
		t.Error("bcrypt ignores bytes after 72; a longer secret must not match")
	}
	other, _ := NewCredentials()
	if other.ClientID == c.ClientID || other.ClientSecret == c.ClientSecret {
		t.Error("credentials repeat")
	}
}
