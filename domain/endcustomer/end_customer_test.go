package endcustomer

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// goodCustomer is a GmbH in Berlin with a German mobile number.
func goodCustomer() EndCustomerInfo {
	return EndCustomerInfo{
		Company: Company{
			LegalForm:          "de_gmbh",
			Name:               "Unicorn GmbH",
			RegistrationNumber: "HRB 123456",
			VATNumber:          "de 123456789",
			BillingAddress:     &Address{Line1: "Torstraße 1", PostalCode: "10119", City: "Berlin", CountryCode: "DE"},
		},
		User: User{FirstName: "Ada", LastName: "Lovelace", PhoneCountryCode: "DE", PhoneNationalNumber: "0151 23456789"},
	}
}

var served = []string{"AT", "BE", "CH", "DE", "ES", "FR", "IT", "LU", "NL"}

func TestValidateEndCustomerNormalizes(t *testing.T) {
	got, problems := ValidateEndCustomer(goodCustomer(), served)
	if len(problems) != 0 {
		t.Fatalf("a good customer: %+v", problems)
	}
	if got.Company.VATNumber != "DE123456789" || got.Language != "de" || got.User.PhoneType != PhoneMobile {
		t.Errorf("normalized company: %+v, language %s, phone type %s", got.Company, got.Language, got.User.PhoneType)
	}
	want := Phone{CountryCode: "DE", CountryPrefix: "+49", InternationalFormat: "+49 1512 3456789", National: "01512 3456789", Number: "+4915123456789"}
	if got.Phone != want || got.User.PhoneNationalNumber != "01512 3456789" || got.User.PhoneCountryCode != "DE" {
		t.Errorf("phone %+v, user %+v", got.Phone, got.User)
	}
}

func TestValidateEndCustomerNamesEveryBadField(t *testing.T) {
	cases := []struct {
		name string
		tune func(*EndCustomerInfo)
		want []FieldError // in any order
	}{
		{"nothing given", func(i *EndCustomerInfo) { *i = EndCustomerInfo{} }, []FieldError{
			{CodeRequired, "end_customer.name", "is required"},
			{CodeRequired, "end_customer.billing_address", "is required"},
			{CodeRequired, "end_customer.type", "is required"},
			{CodeRequired, "end_customer.vat_number", "is required unless not_vat_registered is true"},
			{CodeRequired, "end_user.first_name", "is required"},
			{CodeRequired, "end_user.last_name", "is required"},
			{CodeRequired, "end_user.phone_national_number", "is required"},
		}},
		{"billing country not served", func(i *EndCustomerInfo) {
			i.Company.BillingAddress = &Address{Line1: "1 Main St", PostalCode: "00-950", City: "Warsaw", CountryCode: "PL"}
			i.Company.VATNumber = "PL1234567890"
			i.Company.LegalForm = "limited_company"
		}, []FieldError{
			{CodeNotAllowed, "end_customer.billing_address.country_code", "PL is not served for this offer; bill to one of AT, BE, CH, DE, ES, FR, IT, LU, NL"},
		}},
		{"VAT number of another country", func(i *EndCustomerInfo) { i.Company.VATNumber = "ATU12345678" }, []FieldError{
			{CodeInvalidFormat, "end_customer.vat_number", "must be a VAT number of the billing country DE: DE followed by 9 digits, such as DE123456789"},
		}},
		{"legal form of another country", func(i *EndCustomerInfo) { i.Company.LegalForm = "fr_sarl" }, []FieldError{
			{CodeNotAllowed, "end_customer.type", `"fr_sarl" is not a legal form of companies in DE; use one of de_gmbh, de_ug, de_ag, de_kgaa, de_gmbh_co_kg, de_kg, de_ohg, de_partg, de_gbr, de_ek, de_sole_proprietor, de_freelancer, de_eg, de_ev, de_stiftung, de_public_body`},
		}},
		{"the seat decides the legal form", func(i *EndCustomerInfo) {
			i.Company.LegalForm = "nl_bv"
			i.Company.CompanyAddress = &Address{Line1: "Dam 1", PostalCode: "1012 JS", City: "Amsterdam", CountryCode: "NL"}
		}, nil},
		{"registered form without its number", func(i *EndCustomerInfo) { i.Company.RegistrationNumber = " " }, []FieldError{
			{CodeRequired, "end_customer.company_registration_number", "is required"},
		}},
		{"unregistered form without a number", func(i *EndCustomerInfo) {
			i.Company.LegalForm, i.Company.RegistrationNumber = "de_freelancer", ""
		}, nil},
		{"not VAT registered needs a tax number and no VAT number", func(i *EndCustomerInfo) { i.Company.NotVATRegistered = true }, []FieldError{
			{CodeRequired, "end_customer.tax_number", "is required"},
			{CodeNotAllowed, "end_customer.vat_number", "must be left out when not_vat_registered is true"},
		}},
		{"not VAT registered with a tax number", func(i *EndCustomerInfo) {
			i.Company.NotVATRegistered, i.Company.VATNumber, i.Company.TaxNumber = true, "", "12/345/67890"
		}, nil},
		{"language and phone type from fixed lists", func(i *EndCustomerInfo) { i.Company.Language, i.User.PhoneType = "fr", "fax" }, []FieldError{
			{CodeNotAllowed, "end_customer.language", "must be one of en, de, nl"},
			{CodeNotAllowed, "end_user.phone_type", "must be mobile or landline"},
		}},
		{"invalid phone number", func(i *EndCustomerInfo) { i.User.PhoneNationalNumber = "12" }, []FieldError{
			{CodeInvalidFormat, "end_user.phone_national_number", "is not a valid phone number: expected a number of DE"},
		}},
		{"phone country unknown", func(i *EndCustomerInfo) { i.User.PhoneCountryCode = "Germany" }, []FieldError{
			{CodeInvalidFormat, "end_user.phone_country_code", "must be a country code such as DE or a calling code such as +49"},
		}},
		{"national number without its country", func(i *EndCustomerInfo) { i.User.PhoneCountryCode = "" }, []FieldError{
			{CodeRequired, "end_user.phone_country_code", "is required unless the number starts with + and its calling code"},
		}},
		{"too long and control characters", func(i *EndCustomerInfo) {
			i.Company.Name = strings.Repeat("x", 256)
			i.User.FirstName = "A\x07da"
		}, []FieldError{
			{CodeTooLong, "end_customer.name", "must be at most 255 characters"},
			{CodeInvalidFormat, "end_user.first_name", "must be text without control characters"},
		}},
		{"bad company address", func(i *EndCustomerInfo) { i.Company.CompanyAddress = &Address{CountryCode: "DE"} }, []FieldError{
			{CodeRequired, "end_customer.company_address.line1", "is required"},
			{CodeRequired, "end_customer.company_address.city", "is required"},
			{CodeRequired, "end_customer.company_address.postal_code", "is required"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			info := goodCustomer()
			tc.tune(&info)
			_, got := ValidateEndCustomer(info, served)
			sortErrors(got)
			sortErrors(tc.want)
			if !reflect.DeepEqual(got, tc.want) && len(got)+len(tc.want) > 0 {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func sortErrors(es []FieldError) {
	slices.SortFunc(es, func(a, b FieldError) int { return strings.Compare(a.Field, b.Field) })
}

func TestPhoneNumbers(t *testing.T) {
	cases := []struct {
		country, number string
		want            Phone
		kind            string
	}{
		{"DE", "030 1234567", Phone{"DE", "+49", "+49 30 1234567", "030 1234567", "+49301234567"}, PhoneLandline},
		{"+43", "0664 1234567", Phone{"AT", "+43", "+43 664 1234567", "0664 1234567", "+436641234567"}, PhoneMobile},
		{"0041", "044 668 18 00", Phone{"CH", "+41", "+41 44 668 18 00", "044 668 18 00", "+41446681800"}, PhoneLandline},
		{"", "+31 6 12345678", Phone{"NL", "+31", "+31 6 12345678", "06 12345678", "+31612345678"}, PhoneMobile},
		{"", "0032 470 12 34 56", Phone{"BE", "+32", "+32 470 12 34 56", "0470 12 34 56", "+32470123456"}, PhoneMobile},
		// A full number wins over the country it is said to be from.
		{"DE", "+33 1 23 45 67 89", Phone{"FR", "+33", "+33 1 23 45 67 89", "01 23 45 67 89", "+33123456789"}, PhoneLandline},
	}
	for _, c := range cases {
		info := goodCustomer()
		info.User.PhoneCountryCode, info.User.PhoneNationalNumber = c.country, c.number
		got, problems := ValidateEndCustomer(info, served)
		if len(problems) != 0 || got.Phone != c.want || got.User.PhoneType != c.kind {
			t.Errorf("%s %s: %+v (%s) %+v", c.country, c.number, got.Phone, got.User.PhoneType, problems)
		}
	}
	info := goodCustomer()
	info.User.PhoneType = "landline"
	if got, _ := ValidateEndCustomer(info, served); got.User.PhoneType != PhoneLandline {
		t.Errorf("the customer's phone type is kept: %s", got.User.PhoneType)
	}
}

func TestLanguageOfTheCustomer(t *testing.T) {
	for country, want := range map[string]string{"DE": "de", "AT": "de", "NL": "nl", "BE": "nl", "FR": "en"} {
		info := goodCustomer()
		info.Company.BillingAddress.CountryCode = country
		if got, _ := ValidateEndCustomer(info, nil); got.Language != want {
			t.Errorf("billing in %s: %s, want %s", country, got.Language, want)
		}
	}
	info := goodCustomer()
	info.Company.Language = "EN"
	if got, _ := ValidateEndCustomer(info, nil); got.Language != "en" || got.Company.Language != "en" {
		t.Errorf("the chosen language wins: %+v", got.Company)
	}
}
