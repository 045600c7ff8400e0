package api

import (
	"sync/atomic"
	"testing"
)

// CountSecretComparisons counts the client secret comparisons (bcrypt) of
// every token endpoint until the test ends.
func CountSecretComparisons(t testing.TB) *atomic.Int64 {
	var n atomic.Int64
	compare := compareSecret
	compareSecret = func(hash, secret string) bool {
		n.Add(1)
		return compare(hash, secret)
	}
	t.Cleanup(func() { compareSecret = compare })
	return &n
}
