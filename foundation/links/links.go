// Package links signs the values Tenure hands out in links (the shared
// token of an offer link, upload and download links): an HMAC-SHA256 over
// a purpose, a subject and an expiry, so a token made for one purpose and
// one object opens nothing else, and nothing after it expires.
package links

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Signer makes and checks tokens with one key.
type Signer struct {
	key []byte
	now func() time.Time
}

// NewSigner signs with key (links.signing_key).
func NewSigner(key string) *Signer {
	return &Signer{key: []byte(key), now: time.Now}
}

// Errors of Verify.
var (
	ErrInvalid = errors.New("the token is not valid")
	ErrExpired = errors.New("the token has expired")
)

// Sign makes a token for subject, valid for purpose until expires:
// "<unix expiry>.<base64url mac>".
func (s *Signer) Sign(purpose, subject string, expires time.Time) string {
	exp := strconv.FormatInt(expires.Unix(), 10)
	return exp + "." + base64.RawURLEncoding.EncodeToString(s.mac(purpose, subject, exp))
}

// Verify checks that token was made for purpose and subject and has not
// expired.
func (s *Signer) Verify(purpose, subject, token string) error {
	exp, mac, ok := strings.Cut(token, ".")
	if !ok {
		return ErrInvalid
	}
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil || !hmac.Equal(got, s.mac(purpose, subject, exp)) {
		return ErrInvalid
	}
	unix, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return ErrInvalid
	}
	if !s.now().Before(time.Unix(unix, 0)) {
		return ErrExpired
	}
	return nil
}

func (s *Signer) mac(purpose, subject, exp string) []byte {
	h := hmac.New(sha256.New, s.key)
	// Lengths first, so that no two (purpose, subject, expiry) triples
	// serialise alike.
	for _, part := range []string{purpose, subject, exp} {
		h.Write([]byte(strconv.Itoa(len(part)) + ":" + part))
	}
	return h.Sum(nil)
}
