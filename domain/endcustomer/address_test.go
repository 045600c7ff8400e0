package endcustomer

import (
	"reflect"
	"testing"
)

func TestValidateShippingAddress(t *testing.T) {
	good := ShippingAddress{Address: Address{Line1: " Torstraße 1 ", PostalCode: "10119", City: "Berlin", CountryCode: "de"}, RecipientName: "Ada"}
	cases := []struct {
		name    string
		tune    func(*ShippingAddress)
		allowed []string
		want    []FieldError
	}{
		{"good", func(*ShippingAddress) {}, []string{"DE"}, nil},
		{"any country", func(a *ShippingAddress) { a.CountryCode = "PL"; a.PostalCode = "00-950" }, nil, nil},
		{"empty", func(a *ShippingAddress) { *a = ShippingAddress{} }, nil, []FieldError{
			{CodeRequired, "shipping_address.line1", "is required"},
			{CodeRequired, "shipping_address.city", "is required"},
			{CodeRequired, "shipping_address.country_code", "is required"},
			{CodeRequired, "shipping_address.postal_code", "is required"},
		}},
		{"postal code of another country", func(a *ShippingAddress) { a.PostalCode = "1012 AB" }, nil, []FieldError{
			{CodeInvalidFormat, "shipping_address.postal_code", "must be a postal code of DE: 5 digits, such as 10115"},
		}},
		{"not an ISO code", func(a *ShippingAddress) { a.CountryCode = "Germany" }, nil, []FieldError{
			{CodeInvalidFormat, "shipping_address.country_code", "must be an ISO 3166-1 alpha-2 country code such as DE"},
		}},
		{"not shipped to", func(a *ShippingAddress) { a.CountryCode = "AT"; a.PostalCode = "1010" }, []string{"DE", "NL"}, []FieldError{
			{CodeNotAllowed, "shipping_address.country_code", "AT is not shipped to; ship to one of DE, NL"},
		}},
		{"control characters", func(a *ShippingAddress) { a.Line2 = "a\x00b" }, nil, []FieldError{
			{CodeInvalidFormat, "shipping_address.line2", "must be text without control characters"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := good
			tc.tune(&a)
			_, got := ValidateShippingAddress("shipping_address", a, tc.allowed)
			if !reflect.DeepEqual(got, tc.want) && len(got)+len(tc.want) > 0 {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
	got, problems := ValidateShippingAddress("", good, nil)
	want := ShippingAddress{Address: Address{Line1: "Torstraße 1", PostalCode: "10119", City: "Berlin", CountryCode: "DE"}, RecipientName: "Ada"}
	if len(problems) != 0 || got != want {
		t.Errorf("normalized: %+v %+v", got, problems)
	}
	if _, problems := ValidateShippingAddress("", ShippingAddress{}, nil); len(problems) == 0 || problems[0].Field != "line1" {
		t.Errorf("a body that is the address names its fields alone: %+v", problems)
	}
}

func TestPostalCodes(t *testing.T) {
	cases := []struct {
		country, code string
		ok            bool
	}{
		{"DE", "10115", true}, {"DE", "1011", false}, {"AT", "1010", true}, {"CH", "8001", true}, {"BE", "1000", true},
		{"NL", "1012 ab", true}, {"NL", "1012AB", true}, {"NL", "1012", false}, {"FR", "75001", true}, {"IT", "00184", true},
		{"ES", "28001", true}, {"LU", "L-1111", true}, {"LU", "1111", true}, {"GB", "SW1A 1AA", true}, {"US", "9", false},
	}
	for _, c := range cases {
		var fe fieldErrors
		fe.address("", Address{Line1: "x", City: "y", PostalCode: c.code, CountryCode: c.country})
		if (len(fe) == 0) != c.ok {
			t.Errorf("%s %q: %+v", c.country, c.code, fe)
		}
	}
}
