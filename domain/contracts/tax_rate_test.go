package contracts

import (
	"testing"

	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
)

func TestImpliedTaxRateFindsTheRoundRate(t *testing.T) {
	for _, tc := range []struct {
		net, gross, want int64
	}{
		{99900, 118881, 1900},
		{99, 118, 1900}, // 1869 to 1969 fit; 19 % is the roundest
		{999, 1189, 1900},
		{1, 1, 0},
		{50, 54, 700},
		{84034, 100000, 1900},
		{100000, 107000, 700},
		{100000, 121000, 2100},
		{100000, 121500, 2150},
		{100000, 100000, 0},
		{100000, 107700, 770},
		{84034, 100003, 1900}, // no rate fits: pricing.TaxRateOf's estimate
		{0, 0, 0},
	} {
		if got := impliedTaxRate(tc.net, tc.gross); got != tc.want {
			t.Errorf("net %d, gross %d: rate %d, want %d", tc.net, tc.gross, got, tc.want)
		}
	}
}

func TestLineTaxRateComesFromTheUnitPrice(t *testing.T) {
	withoutRate := func(m pricing.Money) *pricing.Money { m.TaxRate = 0; return &m }
	for name, tc := range map[string]struct {
		line orders.Line
		want int64
	}{
		"the unit price's rate when it has one": {orders.Line{UnitPrice: &pricing.Money{Currency: "EUR", Net: 1000, Gross: 1190, TaxRate: 1900}}, 1900},
		"implied by the unit price":             {orders.Line{UnitPrice: withoutRate(pricing.FromNet("EUR", 123456, 700))}, 700},
		"implied by the monthly price when the unit price is zero": {
			orders.Line{UnitPrice: &pricing.Money{Currency: "EUR"}, MonthlyPrice: *withoutRate(pricing.FromNet("EUR", 4990, 2100))}, 2100,
		},
		"no unit price": {orders.Line{MonthlyPrice: *withoutRate(pricing.FromNet("EUR", 4990, 1900))}, 1900},
	} {
		if got := lineTaxRate(tc.line); got != tc.want {
			t.Errorf("%s: %d, want %d", name, got, tc.want)
		}
	}
}
