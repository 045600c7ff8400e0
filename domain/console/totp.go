package console

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/url"
	"time"
)

// TOTP as RFC 6238 and every authenticator app know it: HMAC-SHA1,
// six digits, 30-second steps, a 160-bit secret.
const (
	totpPeriod    = 30
	totpDigits    = 6
	totpSecretLen = 20
	// totpSkew accepts the step before and after the current one, for
	// clocks a little apart and a code typed as it changed.
	totpSkew = 1
)

// totpEncoding is how a secret appears in a provisioning URI: base32
// without padding (RFC 4648), as Google Authenticator's key URI format
// requires.
var totpEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewTOTPSecret is a fresh random secret.
func NewTOTPSecret() []byte {
	s := make([]byte, totpSecretLen)
	_, _ = rand.Read(s)
	return s
}

// TOTPCode is the code of a secret at a time step.
func TOTPCode(secret []byte, step int64) string {
	mac := hmac.New(sha1.New, secret)
	_ = binary.Write(mac, binary.BigEndian, step)
	sum := mac.Sum(nil)
	offset := sum[len(sum)-1] & 0x0f
	value := binary.BigEndian.Uint32(sum[offset:offset+4]) & 0x7fffffff
	return fmt.Sprintf("%06d", value%1_000_000)
}

// TOTPStep is the time step a moment falls in.
func TOTPStep(t time.Time) int64 { return t.Unix() / totpPeriod }

// MatchTOTP is the step within the skew of now whose code is code, or
// false. The caller refuses a step used before, so a code counts once.
func MatchTOTP(secret []byte, code string, now time.Time) (int64, bool) {
	if len(code) != totpDigits {
		return 0, false
	}
	current := TOTPStep(now)
	for step := current - totpSkew; step <= current+totpSkew; step++ {
		if subtle.ConstantTimeCompare([]byte(TOTPCode(secret, step)), []byte(code)) == 1 {
			return step, true
		}
	}
	return 0, false
}

// ProvisioningURI is the otpauth:// URI an authenticator app reads (as a
// QR code or pasted) to add the account.
func ProvisioningURI(email string, secret []byte) string {
	q := url.Values{}
	q.Set("secret", totpEncoding.EncodeToString(secret))
	q.Set("issuer", "Tenure")
	q.Set("algorithm", "SHA1")
	q.Set("digits", fmt.Sprint(totpDigits))
	q.Set("period", fmt.Sprint(totpPeriod))
	return "otpauth://totp/" + url.PathEscape("Tenure:"+email) + "?" + q.Encode()
}

// DecodeTOTPSecret reads a secret as a provisioning URI carries it.
func DecodeTOTPSecret(s string) ([]byte, error) {
	return totpEncoding.DecodeString(s)
}
