package invoices

import (
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Invoice is one invoice of a contractual entity (the financier, its
// seller) to a customer: for an order's installments of a month, or for a
// final charge.
type Invoice struct {
	// Number is the invoice's number, sequential per seller without gaps
	// (§14 (4) No. 4 UStG); the caller assigns it.
	Number    string
	IssueDate civil.Date
	// Language is the customer's: the PDF's language.
	Language pricing.Language
	// Currency is the invoice's currency; SEPA direct debits are in euro.
	Currency string
	Seller   Party
	Buyer    Party
	// BuyerReference is the customer's reference for the invoice (BT-10,
	// required by XRechnung): the order's number.
	BuyerReference string
	Lines          []Line
	// ExemptionReason explains a line at a tax rate of 0 % (§14 (4) No. 8
	// UStG: the note of the exemption), e.g. "Steuerfrei nach § 4 Nr. 8
	// UStG"; required when a line has no tax.
	ExemptionReason string
	Payment         DirectDebit
}

// Party is the seller or the buyer.
type Party struct {
	Name    string
	Address Address
	// VATID is the VAT identification number (USt-IdNr.), e.g.
	// DE123456789. The seller needs it or a TaxNumber.
	VATID string
	// TaxNumber is the seller's tax number (Steuernummer) from its tax
	// office.
	TaxNumber string
	// Email is the party's electronic address for e-invoices (BT-34,
	// BT-49); optional.
	Email string
	// Contact is whom to ask about the invoice; XRechnung requires the
	// seller's (BR-DE-2, 5, 6, 7).
	Contact Contact
	// LegalInfo are the lines a company's business letters carry (register
	// court and number, managing directors, seat: §35a GmbHG, §37a HGB),
	// printed in the PDF's footer.
	LegalInfo []string
}

// Address is a postal address.
type Address struct {
	Street     string
	Street2    string // optional
	PostalCode string
	City       string
	// Country is the ISO 3166-1 alpha-2 code, e.g. DE.
	Country string
}

// Contact is a contact point.
type Contact struct {
	Name  string
	Phone string
	Email string
}

// Line is one invoiced service: an installment (one month's rent of a
// contract, quantity 1 of unit MON) or a final charge (quantity 1 of unit
// C62).
type Line struct {
	Description string
	Quantity    int64
	// Unit is the UN/ECE Recommendation 20 code of the quantity's unit:
	// MON (month), C62 (one), DAY.
	Unit string
	// Price is one unit's net and gross at its tax rate (basis points,
	// 1900 = 19 %), the gross the net taxed once.
	Price pricing.Money
	// Period is when the service is rendered (§14 (4) No. 6 UStG).
	Period civil.Period
}

// DirectDebit is how the invoice is paid: collected by SEPA direct debit
// under a mandate. The invoice is the collection's pre-notification: it
// names the amount, the collection date, the mandate reference and the
// creditor identifier.
type DirectDebit struct {
	Mandate    sepa.MandateReference
	CreditorID sepa.CreditorID
	// DebtorIBAN is the customer's account, printed masked in both the PDF
	// and the e-invoice.
	DebtorIBAN     sepa.IBAN
	CollectionDate civil.Date
}

// Amount is a line's amount: its unit price times its quantity.
func (l Line) Amount() pricing.Money { return l.Price.Times(l.Quantity) }

// Tax is a line's tax in cents.
func (l Line) Tax() int64 { a := l.Amount(); return a.Gross - a.Net }

// ServicePeriod is the span of the lines' periods: the invoice's
// service period (BG-14).
func (inv Invoice) ServicePeriod() civil.Period {
	var p civil.Period
	for i, l := range inv.Lines {
		if i == 0 || l.Period.From.Before(p.From) {
			p.From = l.Period.From
		}
		if i == 0 || l.Period.To.After(p.To) {
			p.To = l.Period.To
		}
	}
	return p
}
