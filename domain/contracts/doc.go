// Package contracts is the rental contract's domain: one contract per
// rented order line, its term, its schedule of monthly installments, the
// end of its term (return, buy-out, extension) and the price of ending it
// early. It is pure: no database, no clock, no configuration loading; the
// contract workflow (workflows/contract) owns the statuses and calls it.
//
// # Days
//
// Contracts count in civil days (civil.Date), never instants. Months are added
// to the one date a series starts from, the day moved to the last day of
// shorter months (civil.Date.AddMonths), so a term started on 31 January has
// installments due on 31 January, 28 February, 31 March, 30 April.
//
// # The term and the schedule
//
// A Term of n months starts on the shipment date of the line's last asset.
// Its period i (0-based) runs from Start.AddMonths(i) to the day before
// Start.AddMonths(i+1); the term ends at the end of period n−1. The Schedule
// has one Installment per period, numbered from 1 and due on the period's
// first day (rent is paid monthly in advance); extensions append periods on
// the same grid, the numbers continuing.
//
// # Money
//
// Amounts are pricing.Money in integer minor units. The monthly amount of a
// contract (RentalOf) is rounded once, from its net at the line's tax rate,
// half away from zero as pricing rounds; every installment of a term has
// that amount, so a schedule's total is the monthly amount times the
// months, net and gross, to the cent. Buy-out and extension prices are
// basis points of a net amount rounded once, then taxed the same way. An
// early termination (Quote) discounts the remaining installments exactly
// in rational arithmetic and rounds once.
//
// # Settings
//
// Policy holds every setting (notice, residual value, extension, early
// termination); Validate names each problem by its key, for the
// configuration to report.
package contracts
