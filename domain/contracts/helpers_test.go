package contracts

import (
	"testing"
	"time"

	"github.com/tenurehq/tenure/foundation/civil"
)

// day is a date of the tests, failing the test when it does not exist.
func day(t testing.TB, s string) civil.Date {
	t.Helper()
	d, err := civil.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// mustDate is a date of the tests built from its parts.
func mustDate(t testing.TB, year int, month time.Month, d int) civil.Date {
	t.Helper()
	out, err := civil.NewDate(year, month, d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
