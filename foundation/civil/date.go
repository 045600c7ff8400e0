package civil

import (
	"cmp"
	"errors"
	"fmt"
	"time"
)

// Date is a day of the civil calendar, without a time or a time zone: the
// day a term starts, an installment falls due, an invoice is issued, a
// bank collects a direct debit.
//
// It is its own type rather than a time.Time at UTC midnight because a due
// date is a day, not an instant: a time.Time invites zone mistakes (the
// midnight of Berlin is the evening before in UTC), compares wrongly with
// == when its location or monotonic reading differ, and lets days and
// instants mix without the compiler noticing. A Date is comparable with ==
// and usable as a map key; its zero value is no date (IsZero). Instants
// become dates only at the edges, with DateOf in the location that decides
// the day, and dates become instants with Midnight.
//
// Its JSON and text form is "YYYY-MM-DD". The zero Date has no text form:
// marshaling it is an error, so a missing date is never written as a
// made-up one (optional dates are pointers or fields tagged omitzero).
type Date struct {
	year  int
	month time.Month
	day   int
}

// dateLayout is the "YYYY-MM-DD" form of dates.
const dateLayout = "2006-01-02"

// NewDate is the given day, or an error when no such day exists (31 April,
// 29 February of a common year) or the year is outside 1 to 9999.
func NewDate(year int, month time.Month, day int) (Date, error) {
	if year < 1 || year > 9999 {
		return Date{}, fmt.Errorf("the year %d is outside 1 to 9999", year)
	}
	if month < time.January || month > time.December {
		return Date{}, fmt.Errorf("the month %d does not exist", month)
	}
	if day < 1 || day > daysIn(year, month) {
		return Date{}, fmt.Errorf("%s %d has no day %d", month, year, day)
	}
	return Date{year, month, day}, nil
}

// DateOf is the day an instant falls on in its own location; convert the
// instant first (t.In(loc)) to take the day of another place.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// ParseDate reads a date in the form "YYYY-MM-DD".
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		return Date{}, fmt.Errorf("%q is not a date of the form YYYY-MM-DD", s)
	}
	return NewDate(t.Date())
}

// Year is the date's year.
func (d Date) Year() int { return d.year }

// Month is the date's month.
func (d Date) Month() time.Month { return d.month }

// Day is the date's day of the month.
func (d Date) Day() int { return d.day }

// Weekday is the day of the week the date falls on.
func (d Date) Weekday() time.Weekday { return d.Midnight(time.UTC).Weekday() }

// IsZero reports whether d is the zero Date, no date at all.
func (d Date) IsZero() bool { return d == Date{} }

// Midnight is the instant the day begins in a location, e.g. for a timer
// that fires on the day.
func (d Date) Midnight(loc *time.Location) time.Time {
	return time.Date(d.year, d.month, d.day, 0, 0, 0, 0, loc)
}

// AddDays is the date n days later (earlier for a negative n).
func (d Date) AddDays(n int) Date {
	return DateOf(time.Date(d.year, d.month, d.day+n, 0, 0, 0, 0, time.UTC))
}

// AddMonths is the same day of the month n months later (earlier for a
// negative n), moved to the last day of the month when that month is
// shorter: 31 January plus one month is 28 February (29 in a leap year).
//
// The clamped day is never carried on: add months to the one date a series
// starts from, never to the previous result, so 31 January gives 28
// February, then 31 March (not 28 March).
func (d Date) AddMonths(n int) Date {
	// time.Date carries a month beyond December into the next year.
	first := time.Date(d.year, d.month+time.Month(n), 1, 0, 0, 0, 0, time.UTC)
	year, month := first.Year(), first.Month()
	return Date{year, month, min(d.day, daysIn(year, month))}
}

// MonthsUntil is the number of whole months from d to a later date e: the
// largest n ≥ 0 with d.AddMonths(n) not after e; 0 when e is before
// d.AddMonths(1).
func (d Date) MonthsUntil(e Date) int {
	// d plus the months between their months lands in e's month, after e
	// only when e's day is earlier: then one month less.
	n := (e.year-d.year)*12 + int(e.month) - int(d.month)
	if n > 0 && d.AddMonths(n).After(e) {
		n--
	}
	return max(n, 0)
}

// Compare is -1 when d is before e, +1 when after, 0 on the same day.
func (d Date) Compare(e Date) int {
	return cmp.Or(cmp.Compare(d.year, e.year), cmp.Compare(d.month, e.month), cmp.Compare(d.day, e.day))
}

// Before reports whether d is an earlier day than e.
func (d Date) Before(e Date) bool { return d.Compare(e) < 0 }

// After reports whether d is a later day than e.
func (d Date) After(e Date) bool { return d.Compare(e) > 0 }

// String is the date as "YYYY-MM-DD"; the zero Date is "0000-00-00".
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.year, int(d.month), d.day)
}

// errZeroDate refuses to write the zero Date.
var errZeroDate = errors.New("the zero date has no text form")

// MarshalText writes the date as "YYYY-MM-DD" (and so JSON as a string).
func (d Date) MarshalText() ([]byte, error) {
	if d.IsZero() {
		return nil, errZeroDate
	}
	return []byte(d.String()), nil
}

// UnmarshalText reads a date written as "YYYY-MM-DD".
func (d *Date) UnmarshalText(text []byte) error {
	parsed, err := ParseDate(string(text))
	if err != nil {
		return err
	}
	*d = parsed
	return nil
}

// daysIn is the number of days of a month.
func daysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}
