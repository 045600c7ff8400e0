package sepa

import "github.com/tenurehq/tenure/foundation/civil"

// LeadDays is how many inter-bank business days before the collection
// date (D) the debtor's bank must have a collection: D-1 for every
// collection of both schemes (EPC016-06 SDD Core Rulebook, 2023 version
// and later, section 4.4 "Time cycle of the processing flow": first and
// recurrent collections alike since the 2016 rulebook dropped D-5 for
// first ones; EPC222-07 SDD B2B Rulebook, the same section: D-1).
//
// The creditor's bank sets its own cut-off before that (often the same
// day D-1 at some hour, some banks a day or two earlier): the run adds it
// as bankDays.
func (s Scheme) LeadDays() int { return 1 }

// EarliestCollectionDate is the earliest collection date a file may ask
// for when it reaches the creditor's bank on the given day before the
// bank's cut-off (a file delivered after the cut-off counts as delivered
// the next day): the scheme's lead time plus the bank's own bankDays, in
// business days counted from the first business day the bank works on it.
func EarliestCollectionDate(delivered civil.Date, s Scheme, bankDays int) civil.Date {
	return AddBusinessDays(BusinessDayOnOrAfter(delivered), s.LeadDays()+max(bankDays, 0))
}

// CollectionDate is the day to collect an installment due on a day, when
// the earliest collection date a run may ask for is earliest: its due date,
// moved to the next business day when TARGET is closed then, and never
// before earliest (an installment due earlier, or missed, goes with the
// run's first possible day).
//
// A daily run collects the installments whose CollectionDate is its
// earliest date: every installment due up to that day not collected yet.
// Consecutive runs' earliest dates are consecutive business days, so no
// due date falls between two runs.
func CollectionDate(due, earliest civil.Date) civil.Date {
	d := BusinessDayOnOrAfter(due)
	if d.Before(earliest) {
		return earliest
	}
	return d
}
