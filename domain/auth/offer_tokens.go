package auth

import (
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/foundation/links"
)

// offerTokenAudience is the audience of customer tokens; seller tokens
// carry another, so neither opens the other's API.
const offerTokenAudience = "customer-api"

// OfferClaims are what an offer-scoped customer token says: which offer
// (of which seller) it opens, and for what.
type OfferClaims struct {
	OfferID  uuid.UUID
	SellerID uuid.UUID
	Scopes   []Scope
	Expiry   time.Time
}

type offerJWTClaims struct {
	jwt.RegisteredClaims
	SellerID string `json:"seller_id"`
	Scope    string `json:"scope"`
}

// OfferTokens issues and verifies offer-scoped customer tokens (HS256
// JWTs) for the Customer-Facing API.
type OfferTokens struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

// NewOfferTokens signs with a key derived from the access-token key
// (auth.signing_key), so that even a token whose audience went unchecked
// could not pass for a seller token; tokens live for ttl at most.
func NewOfferTokens(signingKey string, ttl time.Duration) *OfferTokens {
	key := links.DeriveKey(signingKey, "tenure offer-scoped customer tokens")
	return &OfferTokens{key: []byte(key), ttl: ttl, now: time.Now}
}

// Issue signs a token for one offer with the granted scopes. It expires
// after the configured lifetime or with the offer, whichever comes first,
// and Issue returns that lifetime.
func (t *OfferTokens) Issue(offerID, sellerID uuid.UUID, scopes []Scope, offerExpiry time.Time) (string, time.Duration, error) {
	now := t.now()
	expiry := now.Add(t.ttl)
	if offerExpiry.Before(expiry) {
		expiry = offerExpiry
	}
	if !expiry.After(now) {
		return "", 0, fmt.Errorf("offer %s has expired", offerID)
	}
	claims := offerJWTClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    tokenIssuer,
			Audience:  jwt.ClaimStrings{offerTokenAudience},
			Subject:   offerID.String(),
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(expiry),
			ID:        uuid.NewString(),
		},
		SellerID: sellerID.String(),
		Scope:    strings.Join(scopes, " "),
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.key)
	// JWT times are whole seconds: the lifetime the client is told is the
	// one the token carries.
	return token, claims.ExpiresAt.Sub(claims.IssuedAt.Time), err
}

// Verify checks a customer token's signature, algorithm, issuer, audience
// and lifetime and returns its claims.
func (t *OfferTokens) Verify(token string) (OfferClaims, error) {
	var c offerJWTClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return t.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithAudience(offerTokenAudience),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil {
		return OfferClaims{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	offerID, err1 := uuid.Parse(c.Subject)
	sellerID, err2 := uuid.Parse(c.SellerID)
	if err1 != nil || err2 != nil {
		return OfferClaims{}, fmt.Errorf("%w: subject or seller is not an id", ErrInvalidToken)
	}
	return OfferClaims{OfferID: offerID, SellerID: sellerID, Scopes: strings.Fields(c.Scope), Expiry: c.ExpiresAt.Time}, nil
}
