package sepa

import (
	"testing"

	"github.com/tenurehq/tenure/foundation/civil"
)

// day is a date of the tests, failing the test when it does not exist.
func day(t testing.TB, s string) civil.Date {
	t.Helper()
	d, err := civil.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestEasterSundayOfKnownYears(t *testing.T) {
	for year, want := range map[int]string{
		1818: "1818-03-22", // the earliest possible
		1943: "1943-04-25", // the latest possible
		2000: "2000-04-23", 2019: "2019-04-21", 2024: "2024-03-31", 2025: "2025-04-20",
		2026: "2026-04-05", 2027: "2027-03-28", 2028: "2028-04-16", 2029: "2029-04-01",
		2030: "2030-04-21", 2038: "2038-04-25", 2285: "2285-03-22",
	} {
		if got := easterSunday(year); got != day(t, want) {
			t.Errorf("Easter %d: %s, want %s", year, got, want)
		}
	}
}

func TestIsBusinessDayFollowsTARGET(t *testing.T) {
	for s, want := range map[string]bool{
		"2026-01-01": false, // New Year's Day, a Thursday
		"2026-01-02": true,  // Friday
		"2026-01-03": false, // Saturday
		"2026-01-04": false, // Sunday
		"2026-01-06": true,  // Epiphany is a holiday in some German states, not in TARGET
		"2026-04-02": true,  // Maundy Thursday
		"2026-04-03": false, // Good Friday
		"2026-04-06": false, // Easter Monday
		"2026-04-07": true,
		"2026-05-01": false, // Labour Day, a Friday
		"2026-05-14": true,  // Ascension: national, not TARGET
		"2026-05-25": true,  // Whit Monday: national, not TARGET
		"2026-10-03": false, // German Unity Day falls on a Saturday; closed as a weekend
		"2028-10-03": true,  // German Unity Day on a Tuesday: open
		"2026-12-24": true,  // Christmas Eve
		"2026-12-25": false,
		"2026-12-26": false, // a Saturday too
		"2027-12-26": false, // a Sunday
		"2028-12-26": false, // a Tuesday
		"2026-12-31": true,
		"2027-03-26": false, // Good Friday 2027
		"2027-03-29": false, // Easter Monday 2027
		"2024-03-29": false, // Good Friday 2024
		"2024-04-01": false, // Easter Monday 2024, 1 April
		"2025-04-18": false,
		"2025-04-21": false,
		"2025-04-22": true,
	} {
		if got := IsBusinessDay(day(t, s)); got != want {
			t.Errorf("%s (%s): business day %v, want %v", s, day(t, s).Weekday(), got, want)
		}
	}
}

func TestMovingByBusinessDays(t *testing.T) {
	for _, tc := range []struct {
		name       string
		from       string
		n          int
		next, prev string // NextBusinessDay and PreviousBusinessDay of from
		onOrAfter  string
		added      string // AddBusinessDays(from, n)
	}{
		{"a Tuesday", "2026-03-10", 3, "2026-03-11", "2026-03-09", "2026-03-10", "2026-03-13"},
		{"over a weekend", "2026-03-13", 1, "2026-03-16", "2026-03-12", "2026-03-13", "2026-03-16"},
		{"from a Saturday", "2026-03-14", 1, "2026-03-16", "2026-03-13", "2026-03-16", "2026-03-16"},
		{"into Easter", "2026-04-02", 1, "2026-04-07", "2026-04-01", "2026-04-02", "2026-04-07"},
		{"within Easter", "2026-04-04", 2, "2026-04-07", "2026-04-02", "2026-04-07", "2026-04-08"},
		{"back over Easter", "2026-04-07", -1, "2026-04-08", "2026-04-02", "2026-04-07", "2026-04-02"},
		{"back two over Easter", "2026-04-08", -2, "2026-04-09", "2026-04-07", "2026-04-08", "2026-04-02"},
		{"into Christmas", "2026-12-24", 1, "2026-12-28", "2026-12-23", "2026-12-24", "2026-12-28"},
		{"over New Year", "2026-12-31", 1, "2027-01-04", "2026-12-30", "2026-12-31", "2027-01-04"},
		{"across the holidays", "2026-12-23", 6, "2026-12-24", "2026-12-22", "2026-12-23", "2027-01-04"},
		{"back over New Year", "2027-01-04", -2, "2027-01-05", "2026-12-31", "2027-01-04", "2026-12-30"},
		{"from New Year's Day", "2027-01-01", 0, "2027-01-04", "2026-12-31", "2027-01-04", "2027-01-01"},
		{"into 1 May", "2026-04-30", 1, "2026-05-04", "2026-04-29", "2026-04-30", "2026-05-04"},
		{"zero days", "2026-03-10", 0, "2026-03-11", "2026-03-09", "2026-03-10", "2026-03-10"},
	} {
		from := day(t, tc.from)
		for what, got := range map[string][2]civil.Date{
			"next":      {NextBusinessDay(from), day(t, tc.next)},
			"previous":  {PreviousBusinessDay(from), day(t, tc.prev)},
			"on/after":  {BusinessDayOnOrAfter(from), day(t, tc.onOrAfter)},
			"added":     {AddBusinessDays(from, tc.n), day(t, tc.added)},
			"round":     {AddBusinessDays(AddBusinessDays(BusinessDayOnOrAfter(from), tc.n), -tc.n), BusinessDayOnOrAfter(from)},
			"is a bday": {BusinessDayOnOrAfter(AddBusinessDays(from, tc.n)), AddBusinessDays(from, tc.n)},
		} {
			if what == "is a bday" && tc.n == 0 {
				continue
			}
			if got[0] != got[1] {
				t.Errorf("%s: %s of %s (n=%d) is %s, want %s", tc.name, what, tc.from, tc.n, got[0], got[1])
			}
		}
	}
}

func TestBusinessDaysOfAYear(t *testing.T) {
	// 2026 has 261 weekdays; Good Friday, Easter Monday, 1 January, 1 May
	// and 25 December fall on weekdays, 26 December on a Saturday.
	start := day(t, "2026-01-01")
	count := 0
	for d := start; d.Year() == 2026; d = d.AddDays(1) {
		if IsBusinessDay(d) {
			count++
		}
	}
	if count != 256 {
		t.Errorf("2026 has %d TARGET business days, want 256", count)
	}
}

func TestEarliestCollectionDateIsDMinusOneAfterDelivery(t *testing.T) {
	for _, tc := range []struct {
		name      string
		delivered string
		scheme    Scheme
		bankDays  int
		want      string
	}{
		{"Core, a Monday", "2026-03-09", Core, 0, "2026-03-10"},
		{"B2B, a Monday", "2026-03-09", B2B, 0, "2026-03-10"},
		{"Core, a Friday", "2026-03-13", Core, 0, "2026-03-16"},
		{"delivered on a Saturday", "2026-03-14", Core, 0, "2026-03-17"},
		{"delivered on a Sunday", "2026-03-15", B2B, 0, "2026-03-17"},
		{"the bank wants one day more", "2026-03-09", Core, 1, "2026-03-11"},
		{"the bank wants two days more over a weekend", "2026-03-12", Core, 2, "2026-03-17"},
		{"a negative bank lead counts as none", "2026-03-09", Core, -3, "2026-03-10"},
		{"Maundy Thursday", "2026-04-02", Core, 0, "2026-04-07"},
		{"Good Friday", "2026-04-03", Core, 0, "2026-04-08"},
		{"Easter Monday", "2026-04-06", B2B, 0, "2026-04-08"},
		{"Christmas Eve", "2026-12-24", Core, 0, "2026-12-28"},
		{"Christmas Day", "2026-12-25", Core, 0, "2026-12-29"},
		{"New Year's Eve", "2026-12-31", Core, 0, "2027-01-04"},
		{"New Year's Day", "2027-01-01", Core, 0, "2027-01-05"},
		{"before 1 May", "2026-04-30", Core, 0, "2026-05-04"},
	} {
		got := EarliestCollectionDate(day(t, tc.delivered), tc.scheme, tc.bankDays)
		if got != day(t, tc.want) {
			t.Errorf("%s: delivered %s, earliest %s, want %s", tc.name, tc.delivered, got, tc.want)
		}
		// The rulebook's rule itself: the bank has the file (on the first
		// day it works) at least D-1.
		if submitted := BusinessDayOnOrAfter(day(t, tc.delivered)); AddBusinessDays(got, -tc.scheme.LeadDays()).Before(submitted) {
			t.Errorf("%s: %s is less than D-1 after %s", tc.name, got, submitted)
		}
	}
}

func TestCollectionDateIsTheDueDateOnABusinessDayNeverBeforeTheEarliest(t *testing.T) {
	earliest := day(t, "2026-04-07") // a run delivered on Maundy Thursday
	for _, tc := range []struct{ due, want string }{
		{"2026-04-01", "2026-04-07"}, // overdue: the first possible day
		{"2026-04-03", "2026-04-07"}, // due on Good Friday
		{"2026-04-05", "2026-04-07"}, // due on Easter Sunday
		{"2026-04-07", "2026-04-07"},
		{"2026-04-08", "2026-04-08"}, // later: its own day
		{"2026-04-11", "2026-04-13"}, // due on a Saturday: the Monday
		{"2026-05-01", "2026-05-04"},
		{"2026-12-25", "2026-12-28"},
		{"2027-01-01", "2027-01-04"},
	} {
		if got := CollectionDate(day(t, tc.due), earliest); got != day(t, tc.want) {
			t.Errorf("due %s: collect on %s, want %s", tc.due, got, tc.want)
		}
	}
}

// Daily runs leave no due date behind: every day of two years is collected
// by exactly one run, the one whose earliest date is its collection date.
func TestDailyRunsCoverEveryDueDateOnce(t *testing.T) {
	first, last := day(t, "2026-01-01"), day(t, "2027-12-31")
	covered := map[civil.Date]int{}
	for run := first.AddDays(-10); !run.After(last); run = run.AddDays(1) {
		earliest := EarliestCollectionDate(run, Core, 0)
		if !IsBusinessDay(earliest) {
			t.Fatalf("run %s asks for %s, a closed day", run, earliest)
		}
		covered[earliest]++
	}
	for due := first; !due.After(last.AddDays(-10)); due = due.AddDays(1) {
		if c := CollectionDate(due, due.AddDays(-30)); covered[c] == 0 {
			t.Errorf("due %s (collected %s) is in no run", due, c)
		}
	}
}
