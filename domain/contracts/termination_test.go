package contracts

import (
	"math/big"
	"slices"
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// markDue moves the installments due on or before a day to due, as the
// workflow does.
func markDue(t *testing.T, s Schedule, on civil.Date) Schedule {
	t.Helper()
	s.Installments = slices.Clone(s.Installments)
	for _, inst := range s.FallingDue(on) {
		moved, err := inst.MoveTo(InstallmentDue)
		if err != nil {
			t.Fatal(err)
		}
		s.Installments[inst.Number-1] = moved
	}
	return s
}

// TestTerminationQuoteByHand checks a quote against arithmetic done by
// hand.
//
// A 12-month term from 1 January 2026 at 100.00 net a month, 19 %; the
// quote is made on 15 September 2026 at 12 % a year (1 % a month) with a
// fee of 50.00. Installment 9 (due 1 September) is owed and not quoted.
// The remaining ones are due on 1 October (0 whole months from 15
// September), 1 November (1) and 1 December (2):
//
//	10000 + 10000/1.01 + 10000/1.01²
//	= 10000 + 9900.990099… + 9802.960494…
//	= 29703.950593… → 29704
//
// plus the fee, 29704 + 5000 = 34704 net; × 1.19 = 41297.76 → 41298 gross.
// It is valid 14 days, to 29 September, the day before installment 10
// falls due being later (30 September).
func TestTerminationQuoteByHand(t *testing.T) {
	p := DefaultPolicy()
	p.TerminationYearlyRateBasisPoints, p.TerminationFeeNet = 1200, 5000
	on := day(t, "2026-09-15")
	s := markDue(t, newSchedule(t, "2026-01-01", 12, eur19(10000)), on)
	q, err := p.TerminationQuote(s, on)
	if err != nil {
		t.Fatal(err)
	}
	want := Quote{
		Date:       on,
		ValidUntil: day(t, "2026-09-29"),
		Installments: []QuotedInstallment{
			{Number: 10, DueDate: day(t, "2026-10-01"), Net: 10000, Months: 0},
			{Number: 11, DueDate: day(t, "2026-11-01"), Net: 10000, Months: 1},
			{Number: 12, DueDate: day(t, "2026-12-01"), Net: 10000, Months: 2},
		},
		RemainingNet:  30000,
		DiscountedNet: 29704,
		FeeNet:        5000,
		Total:         pricing.Money{Currency: "EUR", Net: 34704, Gross: 41298, TaxRate: 1900},
	}
	if !equalQuotes(q, want) {
		t.Errorf("quote\n%+v\nwant\n%+v", q, want)
	}
}

// TestTerminationQuoteAtTheDefaultRate is a second hand computation, at
// 5 % a year and 21 % tax, from a month-end start: 24 months from 31
// March 2026 at 49.99 net; quoted on 10 December 2027 with a fee of 25.00,
// the remaining installments are due on 31 December 2027 (0 months),
// 31 January 2028 (1) and 29 February 2028 (2):
//
//	4999 × (1 + 1/(1 + 0.05/12) + 1/(1 + 0.05/12)²)
//	= 4999 × (1 + 0.99585062… + 0.99171846…) = 14934.857853… → 14935
//
// 14935 + 2500 = 17435 net; × 1.21 = 21096.35 → 21096 gross.
func TestTerminationQuoteAtTheDefaultRate(t *testing.T) {
	p := DefaultPolicy()
	p.TerminationFeeNet = 2500
	on := day(t, "2027-12-10")
	s := markDue(t, newSchedule(t, "2026-03-31", 24, pricing.FromNet("EUR", 4999, 2100)), on)
	q, err := p.TerminationQuote(s, on)
	if err != nil {
		t.Fatal(err)
	}
	months := []int{}
	for _, i := range q.Installments {
		months = append(months, i.Months)
	}
	if q.DiscountedNet != 14935 || q.Total != (pricing.Money{Currency: "EUR", Net: 17435, Gross: 21096, TaxRate: 2100}) ||
		!slices.Equal(months, []int{0, 1, 2}) || q.Installments[2].DueDate != day(t, "2028-02-29") || q.ValidUntil != day(t, "2027-12-24") {
		t.Errorf("quote %+v", q)
	}
}

func TestTerminationQuoteLeavesOwedInstallmentsOwed(t *testing.T) {
	p := DefaultPolicy()
	p.TerminationYearlyRateBasisPoints = 0 // the quote is then the plain sum
	s := newSchedule(t, "2026-01-01", 12, eur19(10000))
	on := day(t, "2026-06-01")
	// 1–4 due or paid; 5 failed; 6, due on the quote date, still scheduled
	// (a worker catching up); 8 waived by an operator; 9 paid in advance.
	s = markDue(t, s, day(t, "2026-04-01"))
	set := func(number int, status InstallmentStatus) { s.Installments[number-1].Status = status }
	set(1, InstallmentPaid)
	set(5, InstallmentFailed)
	set(8, InstallmentWaived)
	set(9, InstallmentPaid)
	q, err := p.TerminationQuote(s, on)
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for _, i := range q.Installments {
		numbers = append(numbers, i.Number)
	}
	if !slices.Equal(numbers, []int{7, 10, 11, 12}) || q.RemainingNet != 40000 || q.DiscountedNet != 40000 || q.Total != eur19(40000) {
		t.Errorf("quoted %v: %+v", numbers, q)
	}
	if q.ValidUntil != day(t, "2026-06-15") {
		t.Errorf("valid until %s, want 14 days on", q.ValidUntil)
	}
}

func TestTerminationQuoteValidity(t *testing.T) {
	s := newSchedule(t, "2026-01-20", 12, eur19(10000))
	for _, tc := range []struct {
		on, validUntil string
		days           int
	}{
		{"2026-03-01", "2026-03-15", 14}, // next due 20 March
		{"2026-03-10", "2026-03-19", 14}, // the day before 20 March
		{"2026-03-19", "2026-03-19", 14}, // the day before it falls due: that day only
		{"2026-03-20", "2026-04-03", 14}, // on a due date: that one is owed
		{"2026-03-01", "2026-03-08", 7},
		{"2026-12-25", "2027-01-08", 14}, // the last month runs: only the fee
	} {
		p := DefaultPolicy()
		p.QuoteValidityDays = tc.days
		q, err := p.TerminationQuote(markDue(t, s, day(t, tc.on)), day(t, tc.on))
		if err != nil {
			t.Fatal(err)
		}
		if q.ValidUntil != day(t, tc.validUntil) {
			t.Errorf("quoted on %s for %d days: valid until %s, want %s", tc.on, tc.days, q.ValidUntil, tc.validUntil)
		}
		if !q.ValidOn(q.Date) || !q.ValidOn(q.ValidUntil) || q.ValidOn(q.ValidUntil.AddDays(1)) || q.ValidOn(q.Date.AddDays(-1)) {
			t.Errorf("quoted on %s: ValidOn disagrees with %s–%s", tc.on, q.Date, q.ValidUntil)
		}
	}
}

func TestTerminationQuoteOfNothingLeftIsTheFee(t *testing.T) {
	p := DefaultPolicy()
	p.TerminationFeeNet = 9900
	s := newSchedule(t, "2026-01-01", 12, pricing.FromNet("EUR", 10000, 700))
	// Month by month after the end: the current month is due, none is left.
	s, err := s.Extend(1, s.Installments[0].Amount)
	if err != nil {
		t.Fatal(err)
	}
	on := day(t, "2027-01-10")
	q, err := p.TerminationQuote(markDue(t, s, on), on)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Installments) != 0 || q.RemainingNet != 0 || q.DiscountedNet != 0 || q.Total != pricing.FromNet("EUR", 9900, 700) {
		t.Errorf("quote %+v", q)
	}
}

func TestTerminationQuoteDiscountsLaterInstallmentsMore(t *testing.T) {
	p := DefaultPolicy()
	p.TerminationYearlyRateBasisPoints = 900
	on := day(t, "2026-01-01")
	s := markDue(t, newSchedule(t, "2026-01-01", 36, eur19(10000)), on)
	q, err := p.TerminationQuote(s, on)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Installments) != 35 || q.RemainingNet != 350000 {
		t.Fatalf("quoted %d installments, %d net", len(q.Installments), q.RemainingNet)
	}
	for i, inst := range q.Installments {
		if inst.Months != i+1 { // due on the 1st, quoted on the 1st: whole months
			t.Errorf("installment %d is discounted by %d months", inst.Number, inst.Months)
		}
	}
	// Each month is worth less; rounding once, the whole lies between the
	// sums of the values rounded down and up.
	var low, high int64
	for _, inst := range q.Installments {
		v := discountFactor(900, inst.Months)
		v.Mul(v, bigRat(inst.Net))
		floor := new(big.Int).Quo(v.Num(), v.Denom()).Int64()
		low, high = low+floor, high+floor+1
	}
	if q.DiscountedNet < low || q.DiscountedNet > high || q.DiscountedNet >= q.RemainingNet {
		t.Errorf("discounted to %d, outside %d–%d", q.DiscountedNet, low, high)
	}
}

func TestTerminationQuoteRefusesABrokenInput(t *testing.T) {
	s := newSchedule(t, "2026-01-01", 12, eur19(10000))
	bad := DefaultPolicy()
	bad.QuoteValidityDays = 0
	if _, err := bad.TerminationQuote(s, day(t, "2026-03-01")); err == nil {
		t.Error("an invalid policy quoted")
	}
	if _, err := DefaultPolicy().TerminationQuote(s, civil.Date{}); err == nil {
		t.Error("quoted on no day")
	}
	if _, err := DefaultPolicy().TerminationQuote(Schedule{}, day(t, "2026-03-01")); err == nil {
		t.Error("quoted an empty schedule")
	}
}

// equalQuotes compares quotes field by field.
func equalQuotes(a, b Quote) bool {
	return a.Date == b.Date && a.ValidUntil == b.ValidUntil && slices.Equal(a.Installments, b.Installments) &&
		a.RemainingNet == b.RemainingNet && a.DiscountedNet == b.DiscountedNet && a.FeeNet == b.FeeNet && a.Total == b.Total
}
