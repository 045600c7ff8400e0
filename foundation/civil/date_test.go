package civil

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestNewDateRefusesDaysThatDoNotExist(t *testing.T) {
	for _, tc := range []struct {
		year  int
		month time.Month
		day   int
		ok    bool
	}{
		{2026, time.January, 31, true},
		{2026, time.February, 28, true},
		{2026, time.February, 29, false},
		{2028, time.February, 29, true},
		{2100, time.February, 29, false}, // divisible by 100, not by 400
		{2000, time.February, 29, true},
		{2026, time.April, 31, false},
		{2026, time.April, 30, true},
		{2026, time.January, 0, false},
		{2026, 13, 1, false},
		{2026, 0, 1, false},
		{0, time.January, 1, false},
		{10000, time.January, 1, false},
	} {
		d, err := NewDate(tc.year, tc.month, tc.day)
		if (err == nil) != tc.ok {
			t.Errorf("NewDate(%d, %d, %d): err %v, want ok=%v", tc.year, tc.month, tc.day, err, tc.ok)
			continue
		}
		if tc.ok && (d.Year() != tc.year || d.Month() != tc.month || d.Day() != tc.day) {
			t.Errorf("NewDate(%d, %d, %d) = %s", tc.year, tc.month, tc.day, d)
		}
	}
}

func TestParseDateReadsOnlyYYYYMMDD(t *testing.T) {
	for _, s := range []string{"2026-01-31", "2028-02-29", "0001-01-01", "9999-12-31"} {
		d, err := ParseDate(s)
		if err != nil || d.String() != s {
			t.Errorf("ParseDate(%q) = %s, %v", s, d, err)
		}
	}
	for _, s := range []string{"", "2026-1-31", "2026-02-29", "2026-04-31", "31.01.2026", "2026-01-31T00:00:00Z", "0000-01-01", " 2026-01-31"} {
		if d, err := ParseDate(s); err == nil {
			t.Errorf("ParseDate(%q) = %s, want an error", s, d)
		}
	}
}

func TestDateJSONIsYYYYMMDD(t *testing.T) {
	type doc struct {
		Start Date  `json:"start"`
		End   *Date `json:"end,omitempty"`
		Other Date  `json:"other,omitzero"`
	}
	in := doc{Start: day(t, "2028-02-29")}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != `{"start":"2028-02-29"}` {
		t.Errorf("marshaled %s", raw)
	}
	var out doc
	if err := json.Unmarshal([]byte(`{"start":"2026-01-31","end":"2026-12-30"}`), &out); err != nil {
		t.Fatal(err)
	}
	if out.Start != day(t, "2026-01-31") || out.End == nil || *out.End != day(t, "2026-12-30") || !out.Other.IsZero() {
		t.Errorf("unmarshaled %+v", out)
	}
	for _, bad := range []string{`{"start":"2026-02-30"}`, `{"start":20260131}`, `{"start":"yesterday"}`} {
		if err := json.Unmarshal([]byte(bad), &out); err == nil {
			t.Errorf("unmarshaled %s without an error", bad)
		}
	}
	if _, err := json.Marshal(doc{}); err == nil || !strings.Contains(err.Error(), "zero date") {
		t.Errorf("marshaling a zero date: %v, want an error", err)
	}
}

func TestAddMonthsClampsToTheMonthsLastDay(t *testing.T) {
	for _, tc := range []struct {
		from   string
		months int
		want   string
	}{
		{"2026-01-31", 1, "2026-02-28"},
		{"2026-01-31", 2, "2026-03-31"}, // from the start, not from 28 February
		{"2026-01-31", 3, "2026-04-30"},
		{"2028-01-31", 1, "2028-02-29"}, // leap year
		{"2026-01-30", 1, "2026-02-28"},
		{"2026-01-29", 1, "2026-02-28"},
		{"2028-01-29", 1, "2028-02-29"},
		{"2026-01-28", 1, "2026-02-28"},
		{"2028-02-29", 12, "2029-02-28"},
		{"2028-02-29", 48, "2032-02-29"},
		{"2028-02-29", 1, "2028-03-29"},
		{"2026-02-28", 12, "2027-02-28"},
		{"2027-02-28", 12, "2028-02-28"}, // 28 stays 28 in a leap year
		{"2026-03-31", 1, "2026-04-30"},
		{"2026-08-31", 1, "2026-09-30"},
		{"2026-10-31", 1, "2026-11-30"},
		{"2026-12-31", 2, "2027-02-28"},
		{"2026-11-30", 3, "2027-02-28"},
		{"2026-12-15", 1, "2027-01-15"},
		{"2026-01-15", 36, "2029-01-15"},
		{"2026-05-31", 0, "2026-05-31"},
		{"2026-03-31", -1, "2026-02-28"},
		{"2026-01-15", -1, "2025-12-15"},
		{"2026-01-31", -13, "2024-12-31"},
		{"2028-03-31", -1, "2028-02-29"},
	} {
		if got := day(t, tc.from).AddMonths(tc.months); got != day(t, tc.want) {
			t.Errorf("%s + %d months = %s, want %s", tc.from, tc.months, got, tc.want)
		}
	}
}

func TestAddDaysCrossesMonthsYearsAndLeapDays(t *testing.T) {
	for _, tc := range []struct {
		from string
		days int
		want string
	}{
		{"2026-02-28", 1, "2026-03-01"},
		{"2028-02-28", 1, "2028-02-29"},
		{"2028-03-01", -1, "2028-02-29"},
		{"2026-12-31", 1, "2027-01-01"},
		{"2027-01-01", -1, "2026-12-31"},
		{"2026-01-01", 365, "2027-01-01"},
		{"2028-01-01", 365, "2028-12-31"},
		{"2026-12-30", -90, "2026-10-01"},
		{"2026-05-31", 0, "2026-05-31"},
	} {
		if got := day(t, tc.from).AddDays(tc.days); got != day(t, tc.want) {
			t.Errorf("%s + %d days = %s, want %s", tc.from, tc.days, got, tc.want)
		}
	}
}

func TestMonthsUntilCountsWholeMonths(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     int
	}{
		{"2026-09-15", "2026-10-01", 0},
		{"2026-09-15", "2026-10-14", 0},
		{"2026-09-15", "2026-10-15", 1},
		{"2026-09-15", "2026-11-01", 1},
		{"2026-09-15", "2026-12-01", 2},
		{"2026-01-31", "2026-02-27", 0},
		{"2026-01-31", "2026-02-28", 1}, // 31 Jan + 1 month is 28 Feb
		{"2026-01-31", "2026-03-30", 1},
		{"2026-01-31", "2026-03-31", 2},
		{"2026-01-15", "2029-01-15", 36},
		{"2026-01-15", "2029-01-14", 35},
		{"2026-01-15", "2026-01-15", 0},
		{"2026-01-15", "2025-06-01", 0}, // an earlier date
	} {
		if got := day(t, tc.from).MonthsUntil(day(t, tc.to)); got != tc.want {
			t.Errorf("months from %s to %s = %d, want %d", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestCompareOrdersDays(t *testing.T) {
	dates := []string{"2025-12-31", "2026-01-01", "2026-01-31", "2026-02-01", "2026-02-28", "2027-01-01"}
	for i, a := range dates {
		for j, b := range dates {
			da, db := day(t, a), day(t, b)
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := da.Compare(db); got != want {
				t.Errorf("%s.Compare(%s) = %d, want %d", a, b, got, want)
			}
			if da.Before(db) != (want < 0) || da.After(db) != (want > 0) || (da == db) != (want == 0) {
				t.Errorf("Before/After/== disagree with Compare for %s and %s", a, b)
			}
		}
	}
}

func TestDateOfAndMidnightTakeTheDayOfALocation(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	// 23:30 UTC on 31 January is already 1 February in Berlin.
	instant := time.Date(2026, time.January, 31, 23, 30, 0, 0, time.UTC)
	if got := DateOf(instant); got != day(t, "2026-01-31") {
		t.Errorf("the UTC day is %s", got)
	}
	if got := DateOf(instant.In(berlin)); got != day(t, "2026-02-01") {
		t.Errorf("the Berlin day is %s", got)
	}
	m := day(t, "2026-02-01").Midnight(berlin)
	if !m.Equal(time.Date(2026, time.January, 31, 23, 0, 0, 0, time.UTC)) || DateOf(m) != day(t, "2026-02-01") {
		t.Errorf("midnight of 1 February in Berlin is %s", m)
	}
	if !(Date{}).IsZero() || day(t, "2026-01-01").IsZero() {
		t.Error("IsZero is wrong")
	}
	if got := mustDate(t, 2026, time.March, 5).String(); got != "2026-03-05" {
		t.Errorf("String is %q", got)
	}
}

func TestWeekdayFollowsTheCalendar(t *testing.T) {
	for s, want := range map[string]time.Weekday{
		"2026-01-01": time.Thursday, "2026-04-03": time.Friday, "2028-02-29": time.Tuesday,
		"2000-01-01": time.Saturday, "1999-12-31": time.Friday, "2026-12-27": time.Sunday,
	} {
		if got := day(t, s).Weekday(); got != want {
			t.Errorf("%s is a %s, got %s", s, want, got)
		}
	}
}
