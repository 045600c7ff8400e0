package contracts

import (
	"math/big"
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
)

func TestRoundTakesHalvesAwayFromZero(t *testing.T) {
	for _, tc := range []struct {
		num, den int64
		want     int64
	}{
		{5, 2, 3}, {-5, 2, -3}, {3, 2, 2}, {-3, 2, -2},
		{1, 2, 1}, {-1, 2, -1}, {1, 3, 0}, {2, 3, 1}, {-2, 3, -1},
		{0, 7, 0}, {14, 7, 2}, {29703950593, 1000000, 29704},
	} {
		if got := round(big.NewRat(tc.num, tc.den)); got != tc.want {
			t.Errorf("round(%d/%d) = %d, want %d", tc.num, tc.den, got, tc.want)
		}
	}
}

// TestRoundingIsPricingsRule checks round against pricing.FromNet, which
// computes gross = net × (10000 + rate) / 10000 rounded: the same rule on
// every net and rate tried.
func TestRoundingIsPricingsRule(t *testing.T) {
	for net := int64(-2000); net <= 2000; net += 7 {
		for _, rate := range []int64{0, 500, 700, 1900, 2100, 2150, 3333} {
			want := pricing.FromNet("EUR", net, rate).Gross
			if got := round(big.NewRat(net*(basisPointScale+rate), basisPointScale)); got != want {
				t.Errorf("net %d at %d: round gives %d, pricing %d", net, rate, got, want)
			}
			if got := portion(net, basisPointScale+rate); got != want {
				t.Errorf("net %d at %d: portion gives %d, pricing %d", net, rate, got, want)
			}
		}
	}
}

// bigRat is a whole number as a fraction.
func bigRat(n int64) *big.Rat { return new(big.Rat).SetInt64(n) }
