package auth

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"golang.org/x/crypto/bcrypt"
)

// secretCost is the bcrypt work factor of client secrets: slow enough to make
// a stolen hash expensive to attack, quick enough for a token request
// (about 50 ms), which a client makes once per token lifetime.
const secretCost = 10

// Credentials are a client id and its secret in clear text; the secret is
// shown once, when it is made, and only its hash is stored.
type Credentials struct {
	ClientID     string
	ClientSecret string
	SecretHash   string
}

// NewCredentials makes a fresh client id and secret.
func NewCredentials() (Credentials, error) {
	id := make([]byte, 12)
	if _, err := rand.Read(id); err != nil {
		return Credentials{}, err
	}
	c, err := NewSecret()
	if err != nil {
		return Credentials{}, err
	}
	c.ClientID = "tnr_" + hex.EncodeToString(id)
	return c, nil
}

// NewSecret makes a fresh client secret (and its hash) for an existing client.
func NewSecret() (Credentials, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return Credentials{}, err
	}
	secret := "tsk_" + base64.RawURLEncoding.EncodeToString(raw)
	hash, err := bcrypt.GenerateFromPassword([]byte(secret), secretCost)
	if err != nil {
		return Credentials{}, fmt.Errorf("hashing client secret: %w", err)
	}
	return Credentials{ClientSecret: secret, SecretHash: string(hash)}, nil
}

// SecretMatches reports whether secret is the one hash was made from.
func SecretMatches(hash, secret string) bool {
	// bcrypt only reads the first 72 bytes; longer input cannot be ours.
	if len(secret) > 72 {
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(secret)) == nil
}
