package civil

// Period is a span of days, both ends included: a month of a rental term,
// the service period an invoice covers.
type Period struct {
	From Date `json:"from"`
	To   Date `json:"to"`
}

// Contains reports whether a day falls within the period.
func (p Period) Contains(d Date) bool { return !d.Before(p.From) && !d.After(p.To) }
