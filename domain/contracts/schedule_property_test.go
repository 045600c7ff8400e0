package contracts

import (
	"testing"
	"time"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// checkScheduleInvariants asserts what holds for every schedule of a term
// at one monthly amount, checked independently of Check: a count of
// installments equal to the months, numbers from 1, each period starting
// the day after the previous one ends (no gap, no overlap) and lasting 28
// to 31 days, due on its first day, which is the start date's day or the
// last day of a shorter month, the end on the last period's last day, and
// the total the monthly amount times the months.
func checkScheduleInvariants(t *testing.T, s Schedule, start civil.Date, months int, monthly pricing.Money) {
	t.Helper()
	if len(s.Installments) != months || s.Term.Months != months || s.Term.Start != start {
		t.Fatalf("from %s for %d months: %d installments, term %+v", start, months, len(s.Installments), s.Term)
	}
	if err := s.Check(); err != nil {
		t.Fatalf("from %s for %d months: %v", start, months, err)
	}
	for i, inst := range s.Installments {
		p := inst.Period
		if inst.Number != i+1 || inst.DueDate != p.From || p.To.Before(p.From) {
			t.Fatalf("from %s: installment %+v", start, inst)
		}
		if i == 0 && p.From != start {
			t.Fatalf("from %s: the first period starts on %s", start, p.From)
		}
		if i > 0 && s.Installments[i-1].Period.To.AddDays(1) != p.From {
			t.Fatalf("from %s: period %d ends on %s, period %d starts on %s", start, i, s.Installments[i-1].Period.To, i+1, p.From)
		}
		if days := int(p.To.Midnight(time.UTC).Sub(p.From.Midnight(time.UTC)).Hours()/24) + 1; days < 28 || days > 31 {
			t.Fatalf("from %s: period %d lasts %d days", start, i+1, days)
		}
		due := inst.DueDate
		if want := min(start.Day(), daysInMonth(due)); due.Day() != want {
			t.Fatalf("from %s: installment %d is due on day %d, want %d", start, i+1, due.Day(), want)
		}
		if monthsApart := (due.Year()-start.Year())*12 + int(due.Month()) - int(start.Month()); monthsApart != i {
			t.Fatalf("from %s: installment %d is due %d months on", start, i+1, monthsApart)
		}
	}
	if s.End() != s.Installments[months-1].Period.To || s.End().AddDays(1) != start.AddMonths(months) {
		t.Fatalf("from %s for %d months: ends on %s", start, months, s.End())
	}
	total, err := s.Total()
	if err != nil {
		t.Fatal(err)
	}
	if want := monthly.Times(int64(months)); total.Net != want.Net || total.Gross != want.Gross {
		t.Fatalf("from %s for %d months: total %+v, want %+v", start, months, total, want)
	}
}

// TestScheduleInvariantsForEveryStartDay runs every day of four years
// (one of them a leap year) through the term lengths.
func TestScheduleInvariantsForEveryStartDay(t *testing.T) {
	monthly := pricing.FromNet("EUR", 4999, 1900)
	for start := day(t, "2026-01-01"); start.Before(day(t, "2030-01-01")); start = start.AddDays(1) {
		for _, months := range []int{1, 6, 12, 24, 36} {
			term, err := NewTerm(start, months)
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewSchedule(term, monthly)
			if err != nil {
				t.Fatal(err)
			}
			checkScheduleInvariants(t, s, start, months, monthly)
		}
	}
}

// FuzzSchedule checks the invariants for any start day, term, extension
// and amount, and that an extended schedule is the schedule of the longer
// term with its first installments unchanged.
func FuzzSchedule(f *testing.F) {
	f.Add(uint16(30), uint8(12), uint8(12), int64(4999), int64(1900))        // 31 January
	f.Add(uint16(789), uint8(36), uint8(1), int64(1), int64(700))            // 29 February 2028
	f.Add(uint16(58), uint8(24), uint8(3), int64(50), int64(2100))           // 28 February
	f.Add(uint16(119), uint8(1), uint8(0), int64(0), int64(0))               // 30 April
	f.Add(uint16(1460), uint8(120), uint8(36), int64(99999999), int64(2150)) // 31 December 2029
	f.Fuzz(func(t *testing.T, dayIndex uint16, months, extra uint8, net, rate int64) {
		start := day(t, "2026-01-01").AddDays(int(dayIndex % 3653)) // ten years
		n := int(months%120) + 1
		monthly := pricing.FromNet("EUR", int64(uint64(net)%1_000_000_000), int64(uint64(rate)%10001))
		term, err := NewTerm(start, n)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSchedule(term, monthly)
		if err != nil {
			t.Fatal(err)
		}
		checkScheduleInvariants(t, s, start, n, monthly)
		if extra == 0 {
			return
		}
		grown, err := s.Extend(int(extra%48), monthly)
		if extra%48 == 0 {
			if err == nil {
				t.Fatal("extended by no month")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		longer, err := NewSchedule(Term{Start: start, Months: n + int(extra%48)}, monthly)
		if err != nil {
			t.Fatal(err)
		}
		checkScheduleInvariants(t, grown, start, n+int(extra%48), monthly)
		for i := range grown.Installments {
			if grown.Installments[i] != longer.Installments[i] {
				t.Fatalf("extended installment %d is %+v, the longer term's %+v", i+1, grown.Installments[i], longer.Installments[i])
			}
		}
	})
}

// daysInMonth is the number of days of the month a date falls in.
func daysInMonth(d civil.Date) int {
	return time.Date(d.Year(), d.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
