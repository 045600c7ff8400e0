package contracts

import (
	"fmt"

	"github.com/tenurehq/tenure/foundation/civil"
)

// Term is the time a contract runs: Months periods of one month from its
// start date, the shipment date of the line's last asset.
//
// Period i (0-based) runs from Start.AddMonths(i) to the day before
// Start.AddMonths(i+1), both included. Every period's first day is computed
// from the start date (never from the previous period), so a term started
// on a month's 29th to 31st keeps its day wherever the month has it:
// started on 31 January 2026, its periods run 31 Jan – 27 Feb, 28 Feb –
// 30 Mar, 31 Mar – 29 Apr, 30 Apr – 30 May, and so on. The periods follow
// one another without a gap or an overlap.
//
// The term ends at the end of its last period: the day before the start
// date's day of the month, Months months later, that day moved to the last
// day of a shorter month first (started on 31 January 2026, a one-month
// term ends on 27 February, the day before 28 February).
type Term struct {
	Start  civil.Date `json:"start_date"`
	Months int        `json:"months"`
}

// NewTerm is a term of a number of months from a start date; it refuses
// no start date or fewer than one month.
func NewTerm(start civil.Date, months int) (Term, error) {
	if start.IsZero() {
		return Term{}, fmt.Errorf("a term needs a start date")
	}
	if months < 1 {
		return Term{}, fmt.Errorf("a term runs at least one month, got %d", months)
	}
	return Term{Start: start, Months: months}, nil
}

// Period is the i-th month of the term (0-based); i may reach beyond the
// term, for months it is extended by.
func (t Term) Period(i int) civil.Period {
	return civil.Period{From: t.Start.AddMonths(i), To: t.Start.AddMonths(i + 1).AddDays(-1)}
}

// End is the last day of the term, the last day of its last period.
func (t Term) End() civil.Date { return t.Period(t.Months - 1).To }

// Extended is the term made longer by a number of months, its periods
// continuing from the day after its end.
func (t Term) Extended(months int) Term { return Term{Start: t.Start, Months: t.Months + months} }
