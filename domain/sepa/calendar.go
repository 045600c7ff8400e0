package sepa

import (
	"time"

	"github.com/tenurehq/tenure/foundation/civil"
)

// The SEPA schemes count in inter-bank business days: the days TARGET, the
// Eurosystem's settlement system, is open (EPC SDD Core rulebook, chapter
// 7, "Inter-Bank Business Day"). TARGET closes on Saturdays and Sundays
// and on six holidays (ECB Guideline (EU) 2022/912 on TARGET, the
// calendar the ECB publishes as "TARGET closing days"): New Year's Day,
// Good Friday, Easter Monday, 1 May, 25 and 26 December. National holidays
// do not count.

// IsBusinessDay reports whether TARGET settles on a day.
func IsBusinessDay(d civil.Date) bool {
	switch d.Weekday() {
	case time.Saturday, time.Sunday:
		return false
	}
	switch m, day := d.Month(), d.Day(); {
	case m == time.January && day == 1, m == time.May && day == 1,
		m == time.December && (day == 25 || day == 26):
		return false
	}
	easter := easterSunday(d.Year())
	return d != easter.AddDays(-2) && d != easter.AddDays(1)
}

// NextBusinessDay is the first business day after a day.
func NextBusinessDay(d civil.Date) civil.Date {
	for d = d.AddDays(1); !IsBusinessDay(d); d = d.AddDays(1) {
	}
	return d
}

// PreviousBusinessDay is the last business day before a day.
func PreviousBusinessDay(d civil.Date) civil.Date {
	for d = d.AddDays(-1); !IsBusinessDay(d); d = d.AddDays(-1) {
	}
	return d
}

// BusinessDayOnOrAfter is the day itself when it is a business day, else
// the next one.
func BusinessDayOnOrAfter(d civil.Date) civil.Date {
	if IsBusinessDay(d) {
		return d
	}
	return NextBusinessDay(d)
}

// AddBusinessDays moves n business days from a day: forward for n > 0,
// back for n < 0 (AddBusinessDays(d, -1) is D-1); n = 0 is the day itself.
func AddBusinessDays(d civil.Date, n int) civil.Date {
	for ; n > 0; n-- {
		d = NextBusinessDay(d)
	}
	for ; n < 0; n++ {
		d = PreviousBusinessDay(d)
	}
	return d
}

// easterSunday is Easter Sunday of a Gregorian year (the anonymous
// algorithm of Meeus, Jones and Butcher).
func easterSunday(year int) civil.Date {
	a := year % 19
	b, c := year/100, year%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	date, _ := civil.NewDate(year, time.Month(month), day)
	return date
}
