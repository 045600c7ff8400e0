package auth

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
)

// Issuer and audience of seller access tokens.
const (
	tokenIssuer   = "tenure"
	tokenAudience = "seller-api"
)

// Claims are what a seller access token says about its bearer.
type Claims struct {
	SellerID uuid.UUID
	ClientID string
	Scopes   []Scope
	Expiry   time.Time
	// Generation is the credential's generation the token was issued
	// under; a rotation of the secret makes it stale (see Revocations).
	Generation int32
}

type jwtClaims struct {
	jwt.RegisteredClaims
	ClientID   string `json:"client_id"`
	Scope      string `json:"scope"`
	Generation int32  `json:"gen"`
}

// Tokens issues and verifies seller access tokens (HS256 JWTs).
type Tokens struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

// NewTokens returns a token issuer signing with key; tokens live for ttl.
func NewTokens(key string, ttl time.Duration) *Tokens {
	return &Tokens{key: []byte(key), ttl: ttl, now: time.Now}
}

// TTL is how long an issued token is valid.
func (t *Tokens) TTL() time.Duration { return t.ttl }

// Issue signs a token for a seller's client, under the credential's current
// generation, with the granted scopes.
func (t *Tokens) Issue(sellerID uuid.UUID, clientID string, generation int32, scopes []Scope) (string, error) {
	now := t.now()
	claims := jwtClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    tokenIssuer,
			Audience:  jwt.ClaimStrings{tokenAudience},
			Subject:   sellerID.String(),
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(t.ttl)),
			ID:        uuid.NewString(),
		},
		ClientID:   clientID,
		Scope:      strings.Join(scopes, " "),
		Generation: generation,
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(t.key)
}

// ErrInvalidToken is returned for any token that must not be trusted; its
// wrapped cause says why, for logs only.
var ErrInvalidToken = errors.New("invalid access token")

// Verify checks a token's signature, algorithm, issuer, audience and
// lifetime and returns its claims.
func (t *Tokens) Verify(token string) (Claims, error) {
	var c jwtClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return t.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithAudience(tokenAudience),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(t.now),
	)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	sellerID, err := uuid.Parse(c.Subject)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: subject is not a seller id", ErrInvalidToken)
	}
	return Claims{
		SellerID:   sellerID,
		ClientID:   c.ClientID,
		Scopes:     strings.Fields(c.Scope),
		Expiry:     c.ExpiresAt.Time,
		Generation: c.Generation,
	}, nil
}
