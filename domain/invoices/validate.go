package invoices

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/sepa"
)

// Problem is one thing an invoice lacks or gets wrong, by the key of the
// field ("seller.vat_id", "lines[2].period") and in words.
type Problem struct {
	Key     string
	Message string
}

// ErrInvalid refuses to render an invoice that Validate finds problems in.
var ErrInvalid = errors.New("the invoice is incomplete or wrong")

// maxRoundingDifference is how far a rate's tax, the sum of its lines'
// taxes, may be from the tax EN 16931 computes from the rate's taxable
// amount: one currency unit (BR-CO-17 and BR-S-09 in the CEN validation
// artefacts since 1.3.x accept ±1).
const maxRoundingDifference = 100

// vatIDPattern is a VAT identification number: a country prefix (EL for
// Greece) and 2 to 13 letters or digits.
var vatIDPattern = regexp.MustCompile(`^[A-Z]{2}[0-9A-Z+*.]{2,13}$`)

// unitPattern is a UN/ECE Recommendation 20 unit code.
var unitPattern = regexp.MustCompile(`^[A-Z0-9]{2,3}$`)

// Validate lists what the invoice lacks or gets wrong, in field order;
// none means it can be issued. It checks what §14 (4) UStG requires of
// every invoice (both parties' full names and addresses, the seller's VAT
// identification or tax number, the issue date, the number, each line's
// quantity and kind of service, the service period, the net amounts, tax
// rates and taxes, the note of an exemption), what XRechnung adds (the
// buyer reference, the seller's contact, the direct debit's mandate,
// creditor identifier and account) and that the totals add up as
// EN 16931 computes them.
func (inv Invoice) Validate() []Problem {
	var p problems
	p.text("number", inv.Number, "the invoice has no number")
	if inv.IssueDate.IsZero() {
		p.add("issue_date", "the invoice has no issue date")
	}
	switch inv.Language {
	case pricing.English, pricing.German, pricing.Dutch:
	default:
		p.add("language", fmt.Sprintf("the language is en, de or nl, got %q", inv.Language))
	}
	if inv.Currency != "EUR" {
		p.add("currency", fmt.Sprintf("SEPA direct debits are in EUR, the invoice is in %q", inv.Currency))
	}
	p.party("seller", inv.Seller)
	if inv.Seller.VATID == "" && strings.TrimSpace(inv.Seller.TaxNumber) == "" {
		p.add("seller.vat_id", "the seller needs its VAT identification number or its tax number (§14 (4) No. 2 UStG)")
	}
	p.text("seller.contact.name", inv.Seller.Contact.Name, "the seller has no contact person or department (XRechnung BR-DE-5)")
	if len(strings.Map(keepDigits, inv.Seller.Contact.Phone)) < 3 {
		p.add("seller.contact.phone", "the seller's contact has no telephone number of at least three digits (XRechnung BR-DE-6)")
	}
	p.email("seller.contact.email", inv.Seller.Contact.Email, true)
	p.party("buyer", inv.Buyer)
	p.text("buyer_reference", inv.BuyerReference, "the invoice has no buyer reference (XRechnung BR-DE-15): give the order's number")
	if len(inv.Lines) == 0 {
		p.add("lines", "the invoice has no lines")
	}
	exempt := false
	for i, l := range inv.Lines {
		p.line(fmt.Sprintf("lines[%d]", i), l, inv.Currency)
		exempt = exempt || l.Price.TaxRate == 0
	}
	if exempt {
		p.text("exemption_reason", inv.ExemptionReason, "a line has no tax: give the reason of the exemption (§14 (4) No. 8 UStG)")
	}
	for _, r := range inv.Totals().Rates {
		if d := r.Tax - r.TaxOfNet(); d > maxRoundingDifference || d < -maxRoundingDifference {
			p.add("lines", fmt.Sprintf("the lines at %s %% add up to a tax %d cents from the tax of their sum: split the invoice", percentText(r.Rate), d))
		}
	}
	p.payment(inv)
	return p.list
}

// problems collects Problems.
type problems struct{ list []Problem }

// add records a problem.
func (p *problems) add(key, message string) { p.list = append(p.list, Problem{key, message}) }

// text records a problem when a text is blank.
func (p *problems) text(key, value, message string) {
	if strings.TrimSpace(value) == "" {
		p.add(key, message)
	}
}

// email records a problem when an address is missing (and required) or
// is not one.
func (p *problems) email(key, value string, required bool) {
	switch {
	case value == "" && !required:
	case value == "":
		p.add(key, "the e-mail address is missing (XRechnung BR-DE-7)")
	case !emailPattern.MatchString(value):
		p.add(key, fmt.Sprintf("%q is not an e-mail address", value))
	}
}

// emailPattern is XRechnung's test of an e-mail address (BR-DE-28).
var emailPattern = regexp.MustCompile(`^[^@\s]+@([^@.\s]+\.)+[^@.\s]+$`)

// party records what a party lacks: its full name and address (§14 (4)
// No. 1 UStG), a well-formed VAT id and e-mail address.
func (p *problems) party(key string, party Party) {
	p.text(key+".name", party.Name, "the name is missing")
	a := party.Address
	p.text(key+".address.street", a.Street, "the street is missing")
	p.text(key+".address.postal_code", a.PostalCode, "the postal code is missing")
	p.text(key+".address.city", a.City, "the city is missing")
	if len(a.Country) != 2 || strings.ToUpper(a.Country) != a.Country {
		p.add(key+".address.country", fmt.Sprintf("the country is an ISO 3166 code of two capital letters, got %q", a.Country))
	}
	if party.VATID != "" && !vatIDPattern.MatchString(party.VATID) {
		p.add(key+".vat_id", fmt.Sprintf("%q is not a VAT identification number (a country prefix and 2 to 13 letters or digits)", party.VATID))
	}
	p.email(key+".email", party.Email, false)
}

// line records what a line lacks.
func (p *problems) line(key string, l Line, currency string) {
	p.text(key+".description", l.Description, "the line does not say what is invoiced (§14 (4) No. 5 UStG)")
	if l.Quantity < 1 {
		p.add(key+".quantity", fmt.Sprintf("the quantity is at least 1, got %d", l.Quantity))
	}
	if !unitPattern.MatchString(l.Unit) {
		p.add(key+".unit", fmt.Sprintf("the unit is a UN/ECE Recommendation 20 code such as MON or C62, got %q", l.Unit))
	}
	price := l.Price
	switch {
	case price.Currency != currency:
		p.add(key+".price", fmt.Sprintf("the price is in %q, the invoice in %q", price.Currency, currency))
	case price.Net < 0 || price.TaxRate < 0 || price.TaxRate > 10000:
		p.add(key+".price", fmt.Sprintf("the price needs a net of at least 0 and a tax rate of 0 to 100 %%, got %d at %d", price.Net, price.TaxRate))
	case price != pricing.FromNet(currency, price.Net, price.TaxRate):
		p.add(key+".price", fmt.Sprintf("the gross %d is not the net %d taxed once at %s %%", price.Gross, price.Net, percentText(price.TaxRate)))
	}
	switch {
	case l.Period.From.IsZero() || l.Period.To.IsZero():
		p.add(key+".period", "the line has no service period (§14 (4) No. 6 UStG)")
	case l.Period.To.Before(l.Period.From):
		p.add(key+".period", fmt.Sprintf("the service period ends (%s) before it starts (%s)", l.Period.To, l.Period.From))
	}
}

// payment records what the direct debit lacks.
func (p *problems) payment(inv Invoice) {
	d := inv.Payment
	if _, err := sepa.ParseMandateReference(string(d.Mandate)); err != nil {
		p.add("payment.mandate", err.Error())
	}
	if _, err := sepa.ParseCreditorID(string(d.CreditorID)); err != nil {
		p.add("payment.creditor_id", err.Error())
	}
	if d.DebtorIBAN.IsZero() {
		p.add("payment.debtor_iban", "the customer's account is missing (XRechnung BR-DE-31)")
	}
	switch {
	case d.CollectionDate.IsZero():
		p.add("payment.collection_date", "the collection date is missing")
	case d.CollectionDate.Before(inv.IssueDate):
		p.add("payment.collection_date", fmt.Sprintf("the collection date %s is before the issue date %s: the invoice announces the collection", d.CollectionDate, inv.IssueDate))
	}
}

// keepDigits keeps the digits of a text.
func keepDigits(r rune) rune {
	if r >= '0' && r <= '9' {
		return r
	}
	return -1
}

// errorOf is the error of an invoice's problems, nil for none.
func errorOf(list []Problem) error {
	if len(list) == 0 {
		return nil
	}
	parts := make([]string, len(list))
	for i, p := range list {
		parts[i] = p.Key + ": " + p.Message
	}
	return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(parts, "; "))
}
