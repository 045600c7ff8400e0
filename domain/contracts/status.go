package contracts

import "slices"

// Status is where a contract is in its life. The contract workflow's
// transition table (workflows/contract) moves it; this declares what each
// status means.
type Status string

// The statuses of a contract.
const (
	// AwaitingDelivery: the order is confirmed; the term starts when the
	// line's last asset is shipped.
	AwaitingDelivery Status = "awaiting_delivery"
	// Running: the term runs; installments fall due each month.
	Running Status = "running"
	// Ending: the notice date has passed; the end-of-term options are
	// offered until one is taken.
	Ending Status = "ending"
	// Monthly: the end date passed without a choice, or the customer chose
	// to go on month by month; one installment is added a month.
	Monthly Status = "monthly"
	// Returned: every asset came back after the end date.
	Returned Status = "returned"
	// BoughtOut: the customer bought the assets at the residual value.
	BoughtOut Status = "bought_out"
	// Terminated: the customer accepted an early termination quote.
	Terminated Status = "terminated"
	// Canceled: the order was cancelled before the term started.
	Canceled Status = "canceled"
	// Defaulted: collections gave up after the last dunning stage; an
	// operator writes the contract off or terminates it (issue 24).
	Defaulted Status = "defaulted"
	// WrittenOff: an operator wrote off what a defaulted contract owes
	// (issue 24).
	WrittenOff Status = "written_off"
)

// Statuses are all statuses of a contract, in the order of its life.
var Statuses = []Status{AwaitingDelivery, Running, Ending, Monthly, Returned, BoughtOut, Terminated, Canceled, Defaulted, WrittenOff}

// Known reports whether s is a status of a contract.
func (s Status) Known() bool { return slices.Contains(Statuses, s) }

// Final reports whether the contract's life is over in the status: nothing
// moves it again.
func (s Status) Final() bool {
	switch s {
	case Returned, BoughtOut, Terminated, Canceled, WrittenOff:
		return true
	}
	return false
}

// Active reports whether the contract runs in the status: installments
// fall due, and the end-of-term options and early termination apply.
func (s Status) Active() bool {
	switch s {
	case Running, Ending, Monthly:
		return true
	}
	return false
}
