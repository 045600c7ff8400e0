package invoicing

import (
	"github.com/google/uuid"

	"github.com/tenurehq/tenure/foundation/civil"
)

// Kind tells an installments invoice from a charge's.
type Kind string

// The kinds of invoices.
const (
	// Installments bills an order's installments due in a month.
	Installments Kind = "installments"
	// Charge bills one charge of a contract.
	Charge Kind = "charge"
)

// Issued is an invoice as it was issued and stored.
type Issued struct {
	ID             uuid.UUID
	SellerID       uuid.UUID
	OrderID        uuid.UUID
	Number         string
	Kind           Kind
	IssueDate      civil.Date
	CollectionDate civil.Date
	Currency       string
	Net, Tax       int64
	Gross          int64
	Lines          []IssuedLine
}

// IssuedLine is what one line of an issued invoice bills: an installment
// of a contract (InstallmentNumber > 0) or a charge.
type IssuedLine struct {
	ContractID        uuid.UUID
	InstallmentNumber int
	ChargeID          uuid.UUID
	Net, Tax, Gross   int64
}
