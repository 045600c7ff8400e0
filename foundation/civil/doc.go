// Package civil is the calendar's day, without a time or a zone: Date and
// Period, a span of days. Rental contracts (due dates, terms), SEPA
// collections (business days, collection dates) and invoices (issue
// dates, service periods) all count in days, so the type lives below
// them; instants become days only at the edges (DateOf in the location
// that decides the day).
package civil
