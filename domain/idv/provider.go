// Package idv verifies end customers' identity through a provider, by one
// contract: Tenure sends the customer to the provider's URL with a signed,
// expiring session link, and the provider posts its verdict to Tenure's
// callback, signed over the body. The sandbox ships a simulated provider
// that follows the same contract.
package idv

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tenurehq/tenure/foundation/links"
)

// Provider is where customers verify their identity and whose verdicts
// Tenure trusts: its URL and the secret both sides sign with.
type Provider struct {
	// Name is stored with each session (the URL's host, or "simulation").
	Name       string
	URL        string
	Secret     string
	SessionTTL time.Duration
	now        func() time.Time
}

// NewProvider describes a provider reached at rawURL.
func NewProvider(name, rawURL, secret string, sessionTTL time.Duration) Provider {
	return Provider{Name: name, URL: rawURL, Secret: secret, SessionTTL: sessionTTL, now: time.Now}
}

// sessionPurpose is the purpose of session link signatures.
const sessionPurpose = "idv-session"

// CallbackTolerance is how far a callback's signing time may be from
// Tenure's clock.
const CallbackTolerance = 5 * time.Minute

// Errors of the provider contract.
var (
	ErrBadSignature = errors.New("the signature is missing, malformed or does not match")
	ErrStale        = errors.New("the signature is older or newer than Tenure accepts")
	ErrLinkExpired  = errors.New("the session link has expired")
)

// Link is where the customer is sent to verify: the provider's URL with
// session_id, return_url and signature (`<expiry>.<mac>` of the links
// package under the provider secret, over session_id and return_url).
func (p Provider) Link(sessionID, returnURL string, expires time.Time) (string, error) {
	u, err := url.Parse(p.URL)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("session_id", sessionID)
	q.Set("return_url", returnURL)
	q.Set("signature", links.NewSigner(p.Secret).Sign(sessionPurpose, sessionID+" "+returnURL, expires))
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// VerifyLink checks a session link's parameters as a provider does.
func (p Provider) VerifyLink(sessionID, returnURL, signature string) error {
	switch err := links.NewSigner(p.Secret).Verify(sessionPurpose, sessionID+" "+returnURL, signature); {
	case errors.Is(err, links.ErrExpired):
		return ErrLinkExpired
	case err != nil:
		return ErrBadSignature
	}
	return nil
}

// SignCallback is the Tenure-Signature header of a callback body sent at
// at: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
func (p Provider) SignCallback(body []byte, at time.Time) string {
	t := strconv.FormatInt(at.Unix(), 10)
	return "t=" + t + ",v1=" + hex.EncodeToString(p.mac(t, body))
}

// VerifyCallback checks a callback's Tenure-Signature header against its
// raw body: a matching v1 value, signed within CallbackTolerance.
func (p Provider) VerifyCallback(body []byte, header string) error {
	var t string
	var signatures [][]byte
	for _, part := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch key {
		case "t":
			t = value
		case "v1":
			if sig, err := hex.DecodeString(value); err == nil {
				signatures = append(signatures, sig)
			}
		}
	}
	unix, err := strconv.ParseInt(t, 10, 64)
	if err != nil || len(signatures) == 0 {
		return ErrBadSignature
	}
	want := p.mac(t, body)
	matched := false
	for _, sig := range signatures {
		matched = matched || hmac.Equal(sig, want)
	}
	if !matched {
		return ErrBadSignature
	}
	if d := p.now().Sub(time.Unix(unix, 0)); d > CallbackTolerance || d < -CallbackTolerance {
		return ErrStale
	}
	return nil
}

func (p Provider) mac(t string, body []byte) []byte {
	h := hmac.New(sha256.New, []byte(p.Secret))
	h.Write([]byte(t + "."))
	h.Write(body)
	return h.Sum(nil)
}
