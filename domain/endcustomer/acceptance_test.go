package endcustomer

import (
	"reflect"
	"testing"
)

func TestMissingForAcceptance(t *testing.T) {
	info := goodCustomer()
	shipping := &ShippingAddress{Address: Address{Line1: "Torstraße 1", PostalCode: "10119", City: "Berlin", CountryCode: "DE"}}
	if got := MissingForAcceptance(&info, shipping, served, served); len(got) != 0 {
		t.Errorf("complete: %+v", got)
	}
	got := MissingForAcceptance(&info, nil, served, served)
	if !reflect.DeepEqual(got, []FieldError{{CodeRequired, "shipping_address", "is required"}}) {
		t.Errorf("no shipping address: %+v", got)
	}
	got = MissingForAcceptance(nil, &ShippingAddress{Address: Address{Line1: "x", City: "Wien", PostalCode: "1010", CountryCode: "AT"}}, served, []string{"DE"})
	fields := map[string]string{}
	for _, e := range got {
		fields[e.Field] = e.Code
	}
	want := map[string]string{
		"end_customer.name": CodeRequired, "end_customer.billing_address": CodeRequired, "end_customer.type": CodeRequired,
		"end_customer.vat_number": CodeRequired, "end_user.first_name": CodeRequired, "end_user.last_name": CodeRequired,
		"end_user.phone_national_number": CodeRequired, "shipping_address.country_code": CodeNotAllowed,
	}
	if !reflect.DeepEqual(fields, want) {
		t.Errorf("no customer data and a country not shipped to:\n%v\nwant %v", fields, want)
	}
	info.Company.BillingAddress.CountryCode = "PL"
	info.Company.BillingAddress.PostalCode = "00-950"
	if got := MissingForAcceptance(&info, shipping, served, nil); len(got) == 0 || got[0].Field != "end_customer.billing_address.country_code" {
		t.Errorf("data stored before the countries changed is checked again: %+v", got)
	}
}
