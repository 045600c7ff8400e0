package links

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// DeriveKey makes a key for one purpose from a configured secret, so that
// one configured secret can sign several kinds of values without a value
// of one kind ever passing for another.
func DeriveKey(secret, purpose string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(purpose))
	return hex.EncodeToString(mac.Sum(nil))
}
