package apitest

import (
	"strconv"
	"testing"
)

// QuotaHeaders are the rate limit headers of a response, in the order
// limit, remaining, reset.
func QuotaHeaders(t *testing.T, r Response) [3]int {
	t.Helper()
	var q [3]int
	for i, name := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
		v, err := strconv.Atoi(r.Header.Get(name))
		if err != nil {
			t.Fatalf("%s is %q (status %d)", name, r.Header.Get(name), r.Status)
		}
		q[i] = v
	}
	return q
}

// RetryAfter is the Retry-After header of a response, at least 1.
func RetryAfter(t *testing.T, r Response) int {
	t.Helper()
	v, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || v < 1 {
		t.Fatalf("Retry-After is %q", r.Header.Get("Retry-After"))
	}
	return v
}
