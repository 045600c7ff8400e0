package contracts

import "slices"

// InstallmentStatus is where an installment is: scheduled until its due
// date, then due until collections (issue 24) settle it.
type InstallmentStatus string

// The statuses of an installment. Collections add the moves into paid,
// failed and waived; the schedule declares them now so that it needs no
// redesign then.
const (
	// InstallmentScheduled: the installment's due date has not come.
	InstallmentScheduled InstallmentStatus = "scheduled"
	// InstallmentDue: its due date came and it is owed.
	InstallmentDue InstallmentStatus = "due"
	// InstallmentPaid: it was collected.
	InstallmentPaid InstallmentStatus = "paid"
	// InstallmentFailed: its collection failed (or a collected debit was
	// returned); it is still owed.
	InstallmentFailed InstallmentStatus = "failed"
	// InstallmentWaived: it is no longer owed: the contract ended before it
	// fell due (an accepted termination quote settles it), or an operator
	// forgave it.
	InstallmentWaived InstallmentStatus = "waived"
)

// installmentStatuses are all statuses of an installment.
var installmentStatuses = []InstallmentStatus{InstallmentScheduled, InstallmentDue, InstallmentPaid, InstallmentFailed, InstallmentWaived}

// installmentMove is a move of an installment's status.
type installmentMove struct{ from, to InstallmentStatus }

// installmentMoves are every move an installment's status may make; the
// workflows that make them (falling due, collections) follow this table.
var installmentMoves = []installmentMove{
	// Its due date came.
	{InstallmentScheduled, InstallmentDue},
	// The contract ended before it fell due.
	{InstallmentScheduled, InstallmentWaived},
	// Collected.
	{InstallmentDue, InstallmentPaid},
	// The debit was refused or returned.
	{InstallmentDue, InstallmentFailed},
	// Forgiven while owed.
	{InstallmentDue, InstallmentWaived},
	// A later collection or payment settled it.
	{InstallmentFailed, InstallmentPaid},
	// Written off.
	{InstallmentFailed, InstallmentWaived},
	// A SEPA Core debit can be returned weeks after it was booked (the
	// debtor's refund right): it is owed again.
	{InstallmentPaid, InstallmentFailed},
}

// CanMoveTo reports whether the table allows a move from s to another
// status.
func (s InstallmentStatus) CanMoveTo(to InstallmentStatus) bool {
	return slices.ContainsFunc(installmentMoves, func(m installmentMove) bool {
		return m.from == s && m.to == to
	})
}

// Owed reports whether an installment in the status is owed and not yet
// paid: due or failed. A collection's receivable is the sum of these.
func (s InstallmentStatus) Owed() bool { return s == InstallmentDue || s == InstallmentFailed }

// Final reports whether no move leaves the status.
func (s InstallmentStatus) Final() bool {
	return !slices.ContainsFunc(installmentMoves, func(m installmentMove) bool { return m.from == s })
}
