package contracts

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
)

// eur19 is a monthly amount in euros taxed at 19 %.
func eur19(net int64) pricing.Money { return pricing.FromNet("EUR", net, 1900) }

func newSchedule(t *testing.T, start string, months int, monthly pricing.Money) Schedule {
	t.Helper()
	term, err := NewTerm(day(t, start), months)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSchedule(term, monthly)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestScheduleFromAMonthEndStart(t *testing.T) {
	monthly := eur19(4990)
	s := newSchedule(t, "2026-01-31", 4, monthly)
	want := []struct{ from, to string }{
		{"2026-01-31", "2026-02-27"},
		{"2026-02-28", "2026-03-30"},
		{"2026-03-31", "2026-04-29"},
		{"2026-04-30", "2026-05-30"},
	}
	if len(s.Installments) != len(want) {
		t.Fatalf("%d installments, want %d", len(s.Installments), len(want))
	}
	for i, w := range want {
		inst := s.Installments[i]
		if inst.Number != i+1 || inst.Period.From != day(t, w.from) || inst.Period.To != day(t, w.to) ||
			inst.DueDate != day(t, w.from) || inst.Amount != monthly || inst.Status != InstallmentScheduled {
			t.Errorf("installment %d is %+v, want number %d, %s to %s, due %s, %+v, scheduled", i, inst, i+1, w.from, w.to, w.from, monthly)
		}
	}
	if s.End() != day(t, "2026-05-30") || s.Check() != nil {
		t.Errorf("the schedule ends on %s (check: %v)", s.End(), s.Check())
	}
}

func TestScheduleDueDatesFollowTheStartDay(t *testing.T) {
	for _, tc := range []struct {
		start string
		dues  []string
	}{
		{"2026-01-31", []string{"2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30"}},
		{"2026-01-30", []string{"2026-01-30", "2026-02-28", "2026-03-30", "2026-04-30", "2026-05-30", "2026-06-30"}},
		{"2027-12-29", []string{"2027-12-29", "2028-01-29", "2028-02-29", "2028-03-29", "2028-04-29", "2028-05-29"}},
		{"2028-02-29", []string{"2028-02-29", "2028-03-29", "2028-04-29", "2028-05-29", "2028-06-29", "2028-07-29"}},
		{"2026-02-28", []string{"2026-02-28", "2026-03-28", "2026-04-28", "2026-05-28", "2026-06-28", "2026-07-28"}},
		{"2026-09-30", []string{"2026-09-30", "2026-10-30", "2026-11-30", "2026-12-30", "2027-01-30", "2027-02-28"}},
	} {
		s := newSchedule(t, tc.start, len(tc.dues), eur19(1000))
		for i, want := range tc.dues {
			if got := s.Installments[i].DueDate; got != day(t, want) {
				t.Errorf("from %s, installment %d is due on %s, want %s", tc.start, i+1, got, want)
			}
		}
	}
}

func TestScheduleOf12To36MonthsEndsWithItsTerm(t *testing.T) {
	for _, months := range []int{6, 12, 24, 36} {
		for _, start := range []string{"2026-01-01", "2026-01-31", "2028-02-29", "2026-02-28", "2026-04-30", "2026-12-31"} {
			s := newSchedule(t, start, months, eur19(2999))
			last := s.Installments[len(s.Installments)-1]
			if len(s.Installments) != months || last.Number != months || last.Period.To != s.Term.End() || s.End() != s.Term.End() {
				t.Errorf("%d months from %s: %d installments, the last %+v, the term ending %s", months, start, len(s.Installments), last, s.Term.End())
			}
			if first := s.Installments[0]; first.DueDate != day(t, start) {
				t.Errorf("%d months from %s: the first installment is due on %s", months, start, first.DueDate)
			}
		}
	}
}

func TestNewScheduleRefusesABadTermOrAmount(t *testing.T) {
	start := day(t, "2026-01-01")
	for name, tc := range map[string]struct {
		term    Term
		monthly pricing.Money
	}{
		"no start":        {Term{Months: 12}, eur19(1000)},
		"no months":       {Term{Start: start}, eur19(1000)},
		"no currency":     {Term{Start: start, Months: 12}, pricing.Money{Net: 1000, Gross: 1190}},
		"negative net":    {Term{Start: start, Months: 12}, pricing.Money{Currency: "EUR", Net: -1, Gross: -1}},
		"gross below net": {Term{Start: start, Months: 12}, pricing.Money{Currency: "EUR", Net: 1000, Gross: 999}},
	} {
		if s, err := NewSchedule(tc.term, tc.monthly); err == nil {
			t.Errorf("%s: got %+v, want an error", name, s)
		}
	}
	if s, err := NewSchedule(Term{Start: start, Months: 1}, pricing.Money{Currency: "EUR"}); err != nil || len(s.Installments) != 1 {
		t.Errorf("a zero monthly amount (a discount of 100 %%): %+v, %v", s, err)
	}
}

func TestExtendContinuesNumbersAndPeriods(t *testing.T) {
	s := newSchedule(t, "2026-01-31", 12, eur19(5000))
	if s.End() != day(t, "2027-01-30") {
		t.Fatalf("the term ends on %s", s.End())
	}
	reduced := eur19(3500)
	term, err := s.Extend(12, reduced)
	if err != nil {
		t.Fatal(err)
	}
	if len(term.Installments) != 24 || term.Term.Months != 24 || term.End() != day(t, "2028-01-30") {
		t.Fatalf("extended by a term: %d installments, %d months, ending %s", len(term.Installments), term.Term.Months, term.End())
	}
	first := term.Installments[12]
	if first.Number != 13 || first.Period.From != day(t, "2027-01-31") || first.Period.To != day(t, "2027-02-27") ||
		first.DueDate != day(t, "2027-01-31") || first.Amount != reduced || first.Status != InstallmentScheduled {
		t.Errorf("the extension's first installment is %+v", first)
	}
	if second := term.Installments[13]; second.DueDate != day(t, "2027-02-28") || second.Period.To != day(t, "2027-03-30") {
		t.Errorf("the extension's second installment is %+v", second)
	}
	for i, inst := range term.Installments[:12] {
		if inst != s.Installments[i] {
			t.Errorf("installment %d changed: %+v, was %+v", i+1, inst, s.Installments[i])
		}
	}
	if len(s.Installments) != 12 || s.Term.Months != 12 {
		t.Errorf("extending changed the schedule it extended: %d installments", len(s.Installments))
	}

	// Month by month: one installment at a time, at the same rate.
	monthly := term
	for range 3 {
		if monthly, err = monthly.Extend(1, monthly.Installments[len(monthly.Installments)-1].Amount); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []struct{ from, to string }{{"2028-01-31", "2028-02-28"}, {"2028-02-29", "2028-03-30"}, {"2028-03-31", "2028-04-29"}} {
		inst := monthly.Installments[24+i]
		if inst.Number != 25+i || inst.Period.From != day(t, want.from) || inst.Period.To != day(t, want.to) || inst.Amount != reduced {
			t.Errorf("month-by-month installment %d is %+v, want %s to %s", 25+i, inst, want.from, want.to)
		}
	}
	if err := monthly.Check(); err != nil {
		t.Error(err)
	}
}

func TestExtendRefusesWhatCannotGrow(t *testing.T) {
	s := newSchedule(t, "2026-01-15", 12, eur19(5000))
	if _, err := s.Extend(0, eur19(5000)); err == nil {
		t.Error("extended by no month")
	}
	if _, err := s.Extend(1, pricing.FromNet("CHF", 5000, 810)); !errors.Is(err, pricing.ErrMixedCurrencies) {
		t.Errorf("extended in another currency: %v", err)
	}
	if _, err := s.Extend(1, pricing.Money{Currency: "EUR", Net: 10, Gross: 5}); err == nil {
		t.Error("extended with gross below net")
	}
	broken := s
	broken.Installments = broken.Installments[:11]
	if _, err := broken.Extend(1, eur19(5000)); err == nil {
		t.Error("extended a schedule that lost an installment")
	}
}

func TestCheckFindsEveryBrokenInvariant(t *testing.T) {
	for name, breakIt := range map[string]func(s *Schedule){
		"a missing installment":    func(s *Schedule) { s.Installments = s.Installments[:5] },
		"an extra installment":     func(s *Schedule) { s.Installments = append(s.Installments, s.Installments[5]) },
		"a wrong number":           func(s *Schedule) { s.Installments[2].Number = 7 },
		"a gap":                    func(s *Schedule) { s.Installments[3].Period.From = s.Installments[3].Period.From.AddDays(1) },
		"an overlap":               func(s *Schedule) { s.Installments[3].Period.To = s.Installments[3].Period.To.AddDays(1) },
		"a due date off its start": func(s *Schedule) { s.Installments[4].DueDate = s.Installments[4].Period.To },
		"another currency":         func(s *Schedule) { s.Installments[1].Amount.Currency = "CHF" },
		"gross below net":          func(s *Schedule) { s.Installments[1].Amount.Gross = 0 },
		"an unknown status":        func(s *Schedule) { s.Installments[0].Status = "late" },
		"no term":                  func(s *Schedule) { s.Term = Term{} },
	} {
		s := newSchedule(t, "2026-01-31", 6, eur19(1000))
		s.Installments = append([]Installment(nil), s.Installments...)
		breakIt(&s)
		if err := s.Check(); err == nil {
			t.Errorf("%s: Check found nothing", name)
		}
	}
}

func TestFallingDueCatchesUpWithoutRepeating(t *testing.T) {
	s := newSchedule(t, "2026-01-31", 12, eur19(1000))
	numbers := func(insts []Installment) string { return fmt.Sprint(numbersOf(insts)) }
	if got := s.FallingDue(day(t, "2026-01-30")); len(got) != 0 {
		t.Errorf("before the start: %s", numbers(got))
	}
	if got := numbers(s.FallingDue(day(t, "2026-01-31"))); got != "[1]" {
		t.Errorf("on the start date: %s", got)
	}
	// A worker stopped from February to mid-April catches up in order.
	if got := numbers(s.FallingDue(day(t, "2026-04-15"))); got != "[1 2 3]" {
		t.Errorf("on 15 April: %s", got)
	}
	for i := range 3 {
		var err error
		if s.Installments[i], err = s.Installments[i].MoveTo(InstallmentDue); err != nil {
			t.Fatal(err)
		}
	}
	if got := numbers(s.FallingDue(day(t, "2026-04-29"))); got != "[]" {
		t.Errorf("after making them due, on 29 April: %s", got)
	}
	if got := numbers(s.FallingDue(day(t, "2026-04-30"))); got != "[4]" {
		t.Errorf("on 30 April: %s", got)
	}
}

// numbersOf is the numbers of installments.
func numbersOf(insts []Installment) []int {
	out := make([]int, len(insts))
	for i, inst := range insts {
		out[i] = inst.Number
	}
	return out
}
