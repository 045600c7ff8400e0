package discounts

import (
	"crypto/sha256"
	"crypto/subtle"
	"strings"
)

// digest is what a code is looked up by: the SHA-256 of its upper-case
// form (codes compare without regard to case). Looking codes up by digest
// keeps their text out of the index walk, whose timing a guesser could
// otherwise read prefix by prefix.
func digest(code string) []byte {
	sum := sha256.Sum256([]byte(strings.ToUpper(code)))
	return sum[:]
}

// sameCode compares a stored code with a typed one without regard to case,
// in time that depends on their lengths only.
func sameCode(stored, typed string) bool {
	return subtle.ConstantTimeCompare([]byte(strings.ToUpper(stored)), []byte(strings.ToUpper(typed))) == 1
}
