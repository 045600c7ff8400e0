package offers

import (
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
)

// A customer's changes: choices replace those of the lines they name and
// note the contract type on the line and its sublines; the end customer's
// data become the offer's customer.
func TestApplyCustomerChange(t *testing.T) {
	d := Document{Lines: []Line{{ID: "a", Sublines: []Line{{ID: "a1"}}}, {ID: "b"}}}
	d.ApplyCustomerChange(CustomerChange{Choices: []Choice{{LineID: "a", TermID: "a-rent-24"}, {LineID: "b", TermID: "b-pay-now"}}})
	d.ApplyCustomerChange(CustomerChange{Choices: []Choice{{LineID: "a", TermID: "a-pay-now"}}})
	if got := d.Checkout.Choices; len(got) != 2 || got[0].LineID != "b" || got[1].TermID != "a-pay-now" {
		t.Errorf("choices %+v", got)
	}
	if *d.Lines[0].SelectedContractType != "pay_now" || *d.Lines[0].Sublines[0].SelectedContractType != "pay_now" {
		t.Errorf("contract types %v %v", *d.Lines[0].SelectedContractType, *d.Lines[0].Sublines[0].SelectedContractType)
	}
	billing := &Address{City: "Berlin", CountryCode: "DE", Line1: "Torstraße 1", PostalCode: "10119"}
	d.ApplyCustomerChange(CustomerChange{EndCustomer: &EndCustomer{Name: "Kunde GmbH", VATNumber: "DE123456789", BillingAddress: billing,
		FirstName: "Berta", LastName: "Kunde", Phone: Phone{Number: "+49301234567"}}})
	c := d.Customer
	if *c.Company.Name != "Kunde GmbH" || *c.Company.VATNumber != "DE123456789" || c.Company.TaxNumber != nil ||
		c.Company.BillingAddress != billing || *c.FullName != "Berta Kunde" || *c.Phone != "+49301234567" {
		t.Errorf("customer %+v", c)
	}
}

// The engine gets the offer's own prices with their tax rates: the line's
// where it relates net and gross, the implied one for a sum taxed
// otherwise.
func TestCheckoutRequestRestoresTaxRates(t *testing.T) {
	eur := func(net, gross int64) pricing.Money { return pricing.Money{Currency: "EUR", Net: net, Gross: gross} }
	d := Document{
		Lines: []Line{{ID: "a", Quantity: 1, PricingCategory: "hardware", Price: eur(10000, 11900),
			Terms: &Terms{PayNow: &PayNowTerm{Amount: pricing.FromNet("EUR", 10000, 1900)}}}},
		Pricing: &Pricing{Items: []ItemSummary{{
			LineID:                  "a",
			PayNow:                  PayNowAmount{Amount: eur(10700, 12600)},
			PayNowExcludingSublines: PayNowAmount{Amount: eur(10000, 11900)},
			TotalPayNow:             PayNowAmount{Amount: eur(10700, 12600)},
			Rent:                    []RentTerm{{Duration: 24, Monthly: eur(500, 595)}},
		}}},
	}
	r := d.CheckoutRequest([]Choice{{LineID: "a", TermID: "a-rent-24"}}, nil)
	p := r.Lines[0].Price
	if p.PayNowExcludingSublines.TaxRate != 1900 || p.Rent[0].Monthly.TaxRate != 1900 || p.PayNow.TaxRate != pricing.TaxRateOf(10700, 12600) {
		t.Errorf("tax rates %+v", p)
	}
	if r.Currency != "EUR" || len(r.Selections) != 1 || r.Selections[0].TermID != "a-rent-24" {
		t.Errorf("request %+v", r)
	}
}
