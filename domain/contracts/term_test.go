package contracts

import (
	"testing"

	"github.com/tenurehq/tenure/foundation/civil"
)

func TestTermEndsTheDayBeforeTheClampedSameDay(t *testing.T) {
	for _, tc := range []struct {
		start  string
		months int
		end    string
	}{
		{"2026-01-01", 12, "2026-12-31"},
		{"2026-01-01", 24, "2027-12-31"},
		{"2026-01-01", 36, "2028-12-31"},
		{"2026-03-15", 12, "2027-03-14"},
		{"2026-03-15", 24, "2028-03-14"},
		{"2026-03-15", 36, "2029-03-14"},
		{"2026-01-31", 1, "2026-02-27"}, // 31 Jan + 1 month is 28 Feb: the term ends the day before
		{"2028-01-31", 1, "2028-02-28"}, // 29 Feb 2028: ends on 28 Feb
		{"2026-01-31", 12, "2027-01-30"},
		{"2026-01-30", 1, "2026-02-27"},
		{"2026-01-29", 1, "2026-02-27"},
		{"2028-01-29", 1, "2028-02-28"},
		{"2026-03-31", 1, "2026-04-29"},
		{"2026-03-31", 12, "2027-03-30"},
		{"2026-04-30", 10, "2027-02-27"}, // 30 Apr + 10 months is 28 Feb 2027
		{"2026-04-30", 22, "2028-02-28"}, // … is 29 Feb 2028
		{"2026-08-31", 6, "2027-02-27"},
		{"2026-08-31", 24, "2028-08-30"},
		{"2028-02-29", 12, "2029-02-27"}, // 29 Feb + 12 months is 28 Feb 2029
		{"2028-02-29", 24, "2030-02-27"},
		{"2028-02-29", 36, "2031-02-27"},
		{"2028-02-29", 48, "2032-02-28"}, // back to a leap year: 29 Feb 2032, the day before
		{"2026-02-28", 12, "2027-02-27"},
		{"2027-02-28", 12, "2028-02-27"}, // 28 stays the day, even in a leap year
		{"2026-12-31", 2, "2027-02-27"},
		{"2026-12-01", 1, "2026-12-31"},
	} {
		term, err := NewTerm(day(t, tc.start), tc.months)
		if err != nil {
			t.Fatal(err)
		}
		if got := term.End(); got != day(t, tc.end) {
			t.Errorf("a term of %d months from %s ends on %s, want %s", tc.months, tc.start, got, tc.end)
		}
	}
}

func TestTermPeriodsKeepTheStartDay(t *testing.T) {
	term, err := NewTerm(day(t, "2026-01-31"), 6)
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]string{
		{"2026-01-31", "2026-02-27"},
		{"2026-02-28", "2026-03-30"},
		{"2026-03-31", "2026-04-29"},
		{"2026-04-30", "2026-05-30"},
		{"2026-05-31", "2026-06-29"},
		{"2026-06-30", "2026-07-30"},
		{"2026-07-31", "2026-08-30"}, // beyond the term: an extension's first month
	}
	for i, w := range want {
		p := term.Period(i)
		if p.From != day(t, w[0]) || p.To != day(t, w[1]) {
			t.Errorf("period %d is %s to %s, want %s to %s", i, p.From, p.To, w[0], w[1])
		}
	}
	if term.End() != term.Period(5).To {
		t.Errorf("the term ends on %s, its last period on %s", term.End(), term.Period(5).To)
	}
	if got := term.Extended(12); got.Months != 18 || got.Start != term.Start || got.Period(6) != term.Period(6) {
		t.Errorf("extended by 12 months: %+v", got)
	}
}

func TestNewTermRefusesNoStartOrNoMonths(t *testing.T) {
	for _, tc := range []struct {
		start  civil.Date
		months int
	}{
		{civil.Date{}, 12},
		{day(t, "2026-01-01"), 0},
		{day(t, "2026-01-01"), -12},
	} {
		if term, err := NewTerm(tc.start, tc.months); err == nil {
			t.Errorf("NewTerm(%s, %d) = %+v, want an error", tc.start, tc.months, term)
		}
	}
}
