package contracts

import (
	"errors"
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
)

func TestEndOfTermOptionsAndPrices(t *testing.T) {
	r, err := RentalOf(rentedLine(2, 4990)) // 9980 net a month, purchase 2 × 129900
	if err != nil {
		t.Fatal(err)
	}
	s := newSchedule(t, "2026-01-31", r.Months, r.Monthly)
	e, err := DefaultPolicy().EndOfTerm(s, r)
	if err != nil {
		t.Fatal(err)
	}
	want := EndOfTerm{
		EndDate:    day(t, "2028-01-30"),
		NoticeDate: day(t, "2027-11-01"), // 90 days before
		Return:     pricing.Money{Currency: "EUR", TaxRate: 1900},
		// 10 % of 259800 = 25980; × 1.19 = 30916.2
		BuyOut: pricing.Money{Currency: "EUR", Net: 25980, Gross: 30916, TaxRate: 1900},
		// 70 % of 9980 = 6986; × 1.19 = 8313.34
		TermExtension:    Extension{Mode: ExtendByTerm, Months: 12, Monthly: pricing.Money{Currency: "EUR", Net: 6986, Gross: 8313, TaxRate: 1900}},
		MonthlyExtension: Extension{Mode: ExtendMonthly, Months: 1, Monthly: r.Monthly},
	}
	if e != want {
		t.Errorf("end of term\n%+v\nwant\n%+v", e, want)
	}

	// Extended by the term, the end and the notice move; the term
	// extension is again priced from the original rent, the month-by-month
	// one at the reduced rate the schedule now ends with.
	extended, err := s.Extend(e.TermExtension.Months, e.TermExtension.Monthly)
	if err != nil {
		t.Fatal(err)
	}
	again, err := DefaultPolicy().EndOfTerm(extended, r)
	if err != nil {
		t.Fatal(err)
	}
	if again.EndDate != day(t, "2029-01-30") || again.NoticeDate != day(t, "2028-11-01") ||
		again.TermExtension != want.TermExtension || again.MonthlyExtension.Monthly != want.TermExtension.Monthly || again.BuyOut != want.BuyOut {
		t.Errorf("after a term extension: %+v", again)
	}
}

func TestBuyOutAndExtensionRoundOnce(t *testing.T) {
	p := DefaultPolicy()
	p.ResidualBasisPoints, p.ExtensionRateBasisPoints = 1000, 7000
	for _, tc := range []struct {
		purchase, monthlyNet, rate int64
		buyOut, extension          pricing.Money
	}{
		// 10 % of 12345 = 1234.5 → 1235; × 1.19 = 1469.65 → 1470.
		// 70 % of 4995 = 3496.5 → 3497; × 1.19 = 4161.43 → 4161.
		{12345, 4995, 1900, pricing.Money{Currency: "EUR", Net: 1235, Gross: 1470, TaxRate: 1900}, pricing.Money{Currency: "EUR", Net: 3497, Gross: 4161, TaxRate: 1900}},
		// 10 % of 99999 = 9999.9 → 10000; × 1.07 = 10700.
		// 70 % of 1 = 0.7 → 1; × 1.07 = 1.07 → 1.
		{99999, 1, 700, pricing.Money{Currency: "EUR", Net: 10000, Gross: 10700, TaxRate: 700}, pricing.Money{Currency: "EUR", Net: 1, Gross: 1, TaxRate: 700}},
		// 10 % of 55555 = 5555.5 → 5556; × 1.21 = 6722.76 → 6723.
		// 70 % of 2222 = 1555.4 → 1555; × 1.21 = 1881.55 → 1882.
		{55555, 2222, 2100, pricing.Money{Currency: "EUR", Net: 5556, Gross: 6723, TaxRate: 2100}, pricing.Money{Currency: "EUR", Net: 1555, Gross: 1882, TaxRate: 2100}},
		{80000, 3000, 0, pricing.Money{Currency: "EUR", Net: 8000, Gross: 8000}, pricing.Money{Currency: "EUR", Net: 2100, Gross: 2100}},
	} {
		r := Rental{Months: 12, Monthly: pricing.FromNet("EUR", tc.monthlyNet, tc.rate), PurchaseNet: tc.purchase}
		e, err := p.EndOfTerm(newSchedule(t, "2026-03-15", 12, r.Monthly), r)
		if err != nil {
			t.Fatal(err)
		}
		if e.BuyOut != tc.buyOut || e.TermExtension.Monthly != tc.extension {
			t.Errorf("purchase %d, monthly %d at %d: buy-out %+v, extension %+v; want %+v, %+v",
				tc.purchase, tc.monthlyNet, tc.rate, e.BuyOut, e.TermExtension.Monthly, tc.buyOut, tc.extension)
		}
	}
}

func TestResidualIsAPerSellerPercentage(t *testing.T) {
	r := Rental{Months: 24, Monthly: pricing.FromNet("EUR", 5000, 1900), PurchaseNet: 200000}
	s := newSchedule(t, "2026-01-01", 24, r.Monthly)
	for bp, net := range map[int64]int64{0: 0, 500: 10000, 1000: 20000, 1550: 31000, 10000: 200000} {
		p := DefaultPolicy()
		p.ResidualBasisPoints = bp
		e, err := p.EndOfTerm(s, r)
		if err != nil {
			t.Fatal(err)
		}
		if e.BuyOut != pricing.FromNet("EUR", net, 1900) {
			t.Errorf("a residual of %d basis points buys out at %+v, want %d net", bp, e.BuyOut, net)
		}
	}
}

func TestNoticeDate(t *testing.T) {
	r := Rental{Months: 6, Monthly: pricing.FromNet("EUR", 5000, 1900), PurchaseNet: 200000}
	for _, tc := range []struct {
		start     string
		months    int
		days      int
		notice    string
		endOfTerm string
		why       string
	}{
		{"2026-01-01", 12, 90, "2026-10-02", "2026-12-31", "90 days before 31 December"},
		{"2028-01-01", 12, 90, "2028-10-02", "2028-12-31", "a leap year does not change the days before the end"},
		{"2026-03-01", 12, 90, "2026-11-30", "2027-02-28", ""},
		{"2026-01-01", 6, 200, "2026-01-01", "2026-06-30", "a notice longer than the term starts with it"},
		{"2026-01-01", 6, 1, "2026-06-29", "2026-06-30", ""},
	} {
		p := DefaultPolicy()
		p.NoticeDays = tc.days
		e, err := p.EndOfTerm(newSchedule(t, tc.start, tc.months, r.Monthly), r)
		if err != nil {
			t.Fatal(err)
		}
		if e.NoticeDate != day(t, tc.notice) || e.EndDate != day(t, tc.endOfTerm) {
			t.Errorf("%d months from %s, %d days' notice: notice %s, end %s; want %s, %s (%s)",
				tc.months, tc.start, tc.days, e.NoticeDate, e.EndDate, tc.notice, tc.endOfTerm, tc.why)
		}
	}
}

func TestEndOfTermRefusesABrokenInput(t *testing.T) {
	r := Rental{Months: 12, Monthly: pricing.FromNet("EUR", 5000, 1900), PurchaseNet: 200000}
	s := newSchedule(t, "2026-01-01", 12, r.Monthly)
	bad := DefaultPolicy()
	bad.NoticeDays = 0
	if _, err := bad.EndOfTerm(s, r); err == nil {
		t.Error("an invalid policy priced an end of term")
	}
	if _, err := DefaultPolicy().EndOfTerm(Schedule{}, r); err == nil {
		t.Error("an empty schedule has an end of term")
	}
	chf := r
	chf.Monthly.Currency = "CHF"
	if _, err := DefaultPolicy().EndOfTerm(s, chf); !errors.Is(err, pricing.ErrMixedCurrencies) {
		t.Errorf("a rental in another currency: %v", err)
	}
}

func TestExtensionByMode(t *testing.T) {
	r := Rental{Months: 12, Monthly: pricing.FromNet("EUR", 5000, 1900), PurchaseNet: 200000}
	e, err := DefaultPolicy().EndOfTerm(newSchedule(t, "2026-01-01", 12, r.Monthly), r)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := e.Extension(ExtendByTerm); err != nil || got != e.TermExtension {
		t.Errorf("term: %+v, %v", got, err)
	}
	if got, err := e.Extension(ExtendMonthly); err != nil || got != e.MonthlyExtension || got.Months != 1 || got.Monthly != r.Monthly {
		t.Errorf("monthly: %+v, %v", got, err)
	}
	if got, err := e.Extension("weekly"); err == nil {
		t.Errorf("weekly: %+v", got)
	}
}
