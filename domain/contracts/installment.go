package contracts

import (
	"fmt"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Installment is one month's rent of a contract, paid in advance: due on
// the first day of its period.
type Installment struct {
	// Number counts the installments of a contract from 1, on through its
	// extensions.
	Number int          `json:"number"`
	Period civil.Period `json:"period"`
	// DueDate is the period's first day: the start date's day of the
	// month, moved to the last day of shorter months.
	DueDate civil.Date `json:"due_date"`
	// Amount is the month's rent, net and gross with its tax rate; the tax
	// is Gross − Net.
	Amount pricing.Money     `json:"amount"`
	Status InstallmentStatus `json:"status"`
}

// MoveTo is the installment in another status, or an error naming both
// when the table of installment moves does not allow the move.
func (i Installment) MoveTo(to InstallmentStatus) (Installment, error) {
	if !i.Status.CanMoveTo(to) {
		return i, fmt.Errorf("installments with status=%s cannot become %s", i.Status, to)
	}
	i.Status = to
	return i, nil
}
