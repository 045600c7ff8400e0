package risk

import (
	"slices"
	"testing"

	"github.com/tenurehq/tenure/domain/offers"
)

// checkedOut is an offer whose customer gave their company at checkout.
func checkedOut(name, vat, registration string, address *offers.Address) offers.Document {
	d := offers.Document{Customer: offers.Customer{Company: &offers.Company{}}}
	d.ApplyCustomerChange(offers.CustomerChange{EndCustomer: &offers.EndCustomer{
		LegalForm: "de_gmbh", Name: name, VATNumber: vat, RegistrationNumber: registration, BillingAddress: address,
	}})
	return d
}

// A company is known by its VAT id, its registration number (in its
// country) and its name at its address, written however the seller or
// the customer wrote them.
func TestCompanyKeys(t *testing.T) {
	berlin := &offers.Address{Line1: "Invalidenstr. 1", PostalCode: "10115", City: "Berlin", CountryCode: "de"}
	got := CompanyKeys(checkedOut("Kunde G.m.b.H.", "de 123.456.789", "HRB 12345", berlin))
	want := []string{"name:kunde gmbh|DE|10115|invalidenstr 1", "reg:DE:HRB12345", "vat:DE123456789"}
	if !slices.Equal(got, want) {
		t.Errorf("keys %q, want %q", got, want)
	}
	same := CompanyKeys(checkedOut("KUNDE GMBH", "", "", &offers.Address{Line1: "Invalidenstr 1", PostalCode: "10 115", CountryCode: "DE"}))
	if !slices.Equal(same, want[:1]) {
		t.Errorf("the same name and address, written otherwise: %q", same)
	}
	if keys := CompanyKeys(checkedOut("Kunde GmbH", "", "", nil)); len(keys) != 0 {
		t.Errorf("a name without an address is no key: %q", keys)
	}
	name := "Seller's Customer AG"
	merchant := offers.Document{Customer: offers.Customer{Company: &offers.Company{Name: &name, VATNumber: new("CHE-123.456.789"),
		BillingAddress: &offers.Address{Line1: "Bahnhofstrasse 1", PostalCode: "8001", CountryCode: "CH"}}}}
	want = []string{"name:sellers customer ag|CH|8001|bahnhofstrasse 1", "vat:CHE123456789"}
	if got := CompanyKeys(merchant); !slices.Equal(got, want) {
		t.Errorf("the seller's data: %q, want %q", got, want)
	}
}
