package civil

import (
	"testing"
	"time"
)

// day is a date of the tests, failing the test when it does not exist.
func day(t testing.TB, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// mustDate is a date of the tests built from its parts.
func mustDate(t testing.TB, year int, month time.Month, d int) Date {
	t.Helper()
	out, err := NewDate(year, month, d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
