package collections_test

import (
	"testing"

	"github.com/tenurehq/tenure/domain/collections"
)

// Default interest at 1.27 % + 9 points, actual/365, in whole cents.
func TestDefaultInterestIsTheBaseRatePlusNinePointsActualOver365(t *testing.T) {
	from := day(t, "2026-11-02")
	for _, tc := range []struct {
		owed, base int64
		to         string
		want       int64
	}{
		{11900, 127, "2026-11-16", 47},     // 119.00 × 10.27 % × 14/365 = 0.4688 → 0.47
		{100000, 127, "2027-11-02", 10270}, // a full year: the rate itself
		{11900, 127, "2026-11-02", 0},      // no day passed
		{11900, -1000, "2026-12-02", 0},    // a rate below zero gives none
		{1, 127, "2026-11-03", 0},          // less than half a cent
	} {
		if got := collections.DefaultInterest(tc.owed, tc.base, from, day(t, tc.to)); got != tc.want {
			t.Errorf("%d cents at base %d bp to %s: %d, want %d", tc.owed, tc.base, tc.to, got, tc.want)
		}
	}
}
