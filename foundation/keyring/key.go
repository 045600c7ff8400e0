package keyring

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
)

// KeySize is the length of a key's secret: AES-256.
const KeySize = 32

// maxIDLength bounds a key id; it is stored in one byte of every value.
const maxIDLength = 64

// Key is one AES-256-GCM key and the id stored with the values it seals.
// The unlabelled key has the empty id.
type Key struct {
	id   string
	aead cipher.AEAD
}

// NewKey is a labelled key: an id of 1 to 64 letters, digits, '.', '_'
// or '-', and a secret of KeySize bytes.
func NewKey(id string, secret []byte) (Key, error) {
	if err := checkID(id); err != nil {
		return Key{}, err
	}
	return newKey(id, secret)
}

// Unlabelled is the key whose values carry no id (see the package
// documentation): for values sealed before they carried one.
func Unlabelled(secret []byte) (Key, error) { return newKey("", secret) }

// ParseKey reads a key configured as "id:base64".
func ParseKey(spec string) (Key, error) {
	id, encoded, found := strings.Cut(strings.TrimSpace(spec), ":")
	if !found {
		return Key{}, fmt.Errorf("a key is written id:base64, got no ':'")
	}
	secret, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return Key{}, fmt.Errorf("key %q: the secret is not standard base64", id)
	}
	return NewKey(id, secret)
}

// GenerateSpec is a fresh key with the given id, in the configured form
// "id:base64".
func GenerateSpec(id string) (string, error) {
	if err := checkID(id); err != nil {
		return "", err
	}
	return id + ":" + base64.StdEncoding.EncodeToString(randomSecret()), nil
}

// ID is the id stored with the values the key seals; empty for the
// unlabelled key.
func (k Key) ID() string { return k.id }

// newKey builds the AEAD of a secret.
func newKey(id string, secret []byte) (Key, error) {
	if len(secret) != KeySize {
		return Key{}, fmt.Errorf("key %q: the secret has %d bytes, want %d", id, len(secret), KeySize)
	}
	block, err := aes.NewCipher(secret)
	if err != nil {
		return Key{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return Key{}, err
	}
	return Key{id: id, aead: aead}, nil
}

// checkID accepts the ids a key may have.
func checkID(id string) error {
	if id == "" || len(id) > maxIDLength {
		return fmt.Errorf("a key id has 1 to %d characters, got %d", maxIDLength, len(id))
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Errorf("key id %q: only letters, digits, '.', '_' and '-' are allowed", id)
		}
	}
	return nil
}

// randomSecret is KeySize random bytes.
func randomSecret() []byte {
	secret := make([]byte, KeySize)
	_, _ = rand.Read(secret) // crypto/rand.Read never fails (Go 1.24+).
	return secret
}
