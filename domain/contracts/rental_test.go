package contracts

import (
	"errors"
	"testing"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
)

// stored is an amount as an order document stores a line's prices: net
// and gross, no tax rate.
func stored(net, rate int64) pricing.Money {
	m := pricing.FromNet("EUR", net, rate)
	m.TaxRate = 0
	return m
}

// rentedLine is a rented order line of one product at 19 %.
func rentedLine(quantity int64, monthlyNet int64) orders.Line {
	unit := stored(129900, 1900)
	return orders.Line{
		Title: "Laptop", Quantity: quantity, UnitPrice: &unit,
		ContractType: orders.Rent, Duration: 24, MonthlyPrice: stored(monthlyNet, 1900),
	}
}

func TestRentalOfALine(t *testing.T) {
	discount := pricing.FromNet("EUR", 1497, 1900)
	withServices := rentedLine(3, 4990)
	withServices.Services = []offers.AgreedService{{ID: "l-service-replace", Type: pricing.ServiceReplace, Monthly: pricing.FromNet("EUR", 999, 1900)}}
	withServices.MonthlyDiscount = &discount

	at := func(rate int64, quantity, monthlyNet, unitNet int64) orders.Line {
		unit := stored(unitNet, rate)
		return orders.Line{Quantity: quantity, UnitPrice: &unit, ContractType: orders.Rent, Duration: 36, MonthlyPrice: stored(monthlyNet, rate)}
	}

	// A line accepted without a checkout keeps each subline's rent; one
	// bought outright is not part of the contract.
	withSublines := rentedLine(2, 4000)
	rentedSub, boughtSub := stored(10000, 1900), stored(5000, 1900)
	withSublines.Sublines = []orders.Line{
		{Title: "Dock", Quantity: 2, UnitPrice: &rentedSub, ContractType: orders.Rent, Duration: 24, MonthlyPrice: stored(500, 1900)},
		{Title: "Bag", Quantity: 2, UnitPrice: &boughtSub, ContractType: orders.PayNow, MonthlyPrice: pricing.Money{Currency: "EUR"}},
	}
	// A line agreed at checkout holds its sublines' rent; theirs are zero.
	agreedSublines := rentedLine(2, 4500)
	agreedSublines.Sublines = []orders.Line{
		{Title: "Dock", Quantity: 2, UnitPrice: &rentedSub, ContractType: orders.Rent, Duration: 24, MonthlyPrice: pricing.Money{Currency: "EUR"}},
	}

	for name, tc := range map[string]struct {
		line     orders.Line
		months   int
		monthly  pricing.Money
		purchase int64
	}{
		// 4990 × 1.19 = 5938.1
		"one unit": {rentedLine(1, 4990), 24, pricing.Money{Currency: "EUR", Net: 4990, Gross: 5938, TaxRate: 1900}, 129900},
		// 3 × (4990 + 999) − 1497 = 16470; × 1.19 = 19599.3
		"services and a discount": {withServices, 24, pricing.Money{Currency: "EUR", Net: 16470, Gross: 19599, TaxRate: 1900}, 3 * 129900},
		// 2 × 1234 = 2468; × 1.07 = 2640.76
		"7 %": {at(700, 2, 1234, 45600), 36, pricing.Money{Currency: "EUR", Net: 2468, Gross: 2641, TaxRate: 700}, 91200},
		// 5 × 1111 = 5555; × 1.21 = 6721.55
		"21 %": {at(2100, 5, 1111, 39900), 36, pricing.Money{Currency: "EUR", Net: 5555, Gross: 6722, TaxRate: 2100}, 199500},
		"0 %":  {at(0, 4, 2501, 80000), 36, pricing.Money{Currency: "EUR", Net: 10004, Gross: 10004}, 320000},
		// 2 × (4000 + 500) = 9000; × 1.19 = 10710; purchase 2 × (129900 + 10000)
		"sublines without a checkout": {withSublines, 24, pricing.Money{Currency: "EUR", Net: 9000, Gross: 10710, TaxRate: 1900}, 279800},
		"sublines agreed at checkout": {agreedSublines, 24, pricing.Money{Currency: "EUR", Net: 9000, Gross: 10710, TaxRate: 1900}, 279800},
	} {
		r, err := RentalOf(tc.line)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if r.Months != tc.months || r.Monthly != tc.monthly || r.PurchaseNet != tc.purchase {
			t.Errorf("%s: %+v, want %d months, %+v, purchase %d", name, r, tc.months, tc.monthly, tc.purchase)
		}
	}
}

func TestRentalOfRefusesWhatCannotRun(t *testing.T) {
	chf := pricing.FromNet("CHF", 100, 810)
	tooMuch := pricing.FromNet("EUR", 5000, 1900)
	for name, change := range map[string]func(l *orders.Line){
		"bought":              func(l *orders.Line) { l.ContractType = orders.PayNow },
		"no term":             func(l *orders.Line) { l.Duration = 0 },
		"a negative term":     func(l *orders.Line) { l.Duration = -12 },
		"no units":            func(l *orders.Line) { l.Quantity = 0 },
		"no unit price":       func(l *orders.Line) { l.UnitPrice = nil },
		"no currency":         func(l *orders.Line) { l.MonthlyPrice.Currency = "" },
		"a service in CHF":    func(l *orders.Line) { l.Services = []offers.AgreedService{{Monthly: chf}} },
		"a discount in CHF":   func(l *orders.Line) { l.MonthlyDiscount = &chf },
		"a discount too high": func(l *orders.Line) { l.MonthlyDiscount = &tooMuch },
		"a subline of another term": func(l *orders.Line) {
			l.Sublines = []orders.Line{{ContractType: orders.Rent, Duration: 12, Quantity: 1, MonthlyPrice: stored(100, 1900)}}
		},
		"a subline's unit price in CHF": func(l *orders.Line) {
			l.Sublines = []orders.Line{{ContractType: orders.Rent, Duration: 24, Quantity: 1, UnitPrice: &chf, MonthlyPrice: stored(100, 1900)}}
		},
		"a subline in CHF": func(l *orders.Line) {
			l.Sublines = []orders.Line{{ContractType: orders.Rent, Duration: 24, Quantity: 1, MonthlyPrice: chf}}
		},
	} {
		line := rentedLine(1, 4990)
		change(&line)
		if r, err := RentalOf(line); !errors.Is(err, ErrNotRented) {
			t.Errorf("%s: %+v, %v; want ErrNotRented", name, r, err)
		}
	}
}
