package webhook

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// secretPrefix starts every endpoint signing secret, as Standard Webhooks
// and Svix do; the rest is the base64 of the HMAC key.
const secretPrefix = "whsec_"

// secretBytes is the length of a generated HMAC key (Standard Webhooks asks
// for 24 to 64 bytes).
const secretBytes = 24

// NewSecret makes a fresh endpoint signing secret.
func NewSecret() (string, error) {
	key := make([]byte, secretBytes)
	if _, err := rand.Read(key); err != nil {
		return "", err
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// secretKey is the HMAC key of a whsec_ secret.
func secretKey(secret string) ([]byte, error) {
	if !strings.HasPrefix(secret, secretPrefix) {
		return nil, errors.New("a webhook secret starts with " + secretPrefix)
	}
	return base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
}

// SecretBox seals endpoint secrets for storage (keyring, AES-256-GCM).
// Tenure has to read a secret back to sign with it, so it cannot keep
// only a hash; each sealed secret is bound to its endpoint id.
//
// The key is the SHA-256 of webhooks.secret_key, the ring's unlabelled
// key: secrets are sealed in the form they always had, so rows written
// before the key ring existed open, and so do rows written now by an
// older build.
type SecretBox struct {
	ring *keyring.Ring
}

// NewSecretBox derives the AES-256 key from the configured secret key.
func NewSecretBox(key string) (*SecretBox, error) {
	if key == "" {
		return nil, errors.New("webhooks.secret_key is not set")
	}
	sum := sha256.Sum256([]byte(key))
	unlabelled, err := keyring.Unlabelled(sum[:])
	if err != nil {
		return nil, err
	}
	ring, err := keyring.New(unlabelled)
	if err != nil {
		return nil, err
	}
	return &SecretBox{ring: ring}, nil
}

// Seal encrypts an endpoint's secret: a random nonce followed by the
// ciphertext.
func (b *SecretBox) Seal(endpointID uuid.UUID, secret string) []byte {
	return b.ring.Seal([]byte(secret), endpointID[:])
}

// Open decrypts what Seal produced for the same endpoint.
func (b *SecretBox) Open(endpointID uuid.UUID, sealed []byte) (string, error) {
	plain, err := b.ring.Open(sealed, endpointID[:])
	if err != nil {
		return "", fmt.Errorf("opening the secret of endpoint %s (was webhooks.secret_key changed?): %w", endpointID, err)
	}
	return string(plain), nil
}

// SigningSecrets are the secrets that sign a message to the endpoint now:
// the current one, then the previous one while its rotation overlap lasts.
func (b *SecretBox) SigningSecrets(ep dbgen.WebhookEndpoint, now time.Time) ([]string, error) {
	current, err := b.Open(ep.ID, ep.Secret)
	if err != nil {
		return nil, err
	}
	secrets := []string{current}
	if ep.PreviousSecret != nil && ep.PreviousSecretExpiresAt != nil && now.Before(*ep.PreviousSecretExpiresAt) {
		previous, err := b.Open(ep.ID, ep.PreviousSecret)
		if err != nil {
			return nil, err
		}
		secrets = append(secrets, previous)
	}
	return secrets, nil
}
