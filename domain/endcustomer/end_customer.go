package endcustomer

import (
	"slices"
	"strings"
)

// Company is the end customer's company as the API sends it (end_customer).
type Company struct {
	// LegalForm is the code of the company's legal form (`type`).
	LegalForm          string
	Name               string
	RegistrationNumber string
	VATNumber          string
	TaxNumber          string
	BillingAddress     *Address
	// CompanyAddress is the registered seat when it differs from the
	// billing address; optional.
	CompanyAddress   *Address
	Language         string
	NotVATRegistered bool
}

// User is the person who checks out (end_user).
type User struct {
	FirstName string
	LastName  string
	// PhoneCountryCode is an ISO 3166-1 code (DE) or a calling code (+49);
	// it may be left out when the number is international (+49 30 …).
	PhoneCountryCode    string
	PhoneNationalNumber string
	// PhoneType is mobile or landline; optional.
	PhoneType string
}

// EndCustomerInfo is who the end customer is: the company and the person.
type EndCustomerInfo struct {
	Company Company
	User    User
}

// ValidEndCustomer is end customer info that passed validation: trimmed,
// the VAT number, countries and postal codes written the standard way,
// the phone number parsed (the user's phone country and number become the
// number's ISO country and national form) and the phone type known when
// the number tells.
type ValidEndCustomer struct {
	EndCustomerInfo
	Phone Phone
	// Language is the one given, else the billing country's (de for DE,
	// AT, CH and LU; nl for NL and BE; en elsewhere).
	Language string
}

// Languages are those the customer may choose for documents and e-mails.
var Languages = []string{"en", "de", "nl"}

// The lengths of identifiers and names.
const (
	maxIdentifier  = 64
	maxPersonName  = 100
	maxPhoneNumber = 32
)

// ValidateEndCustomer checks end customer info and names every bad field at
// once. The rules:
//
//   - company name, legal form and billing address (line 1, postal code,
//     city, country) are required; the company address is optional and
//     checked like the billing address when given;
//   - the legal form is one of the company's country (that of the company
//     address, else the billing address): the country's own list, or the
//     generic forms for a country without one;
//   - the registration number is required for registered legal forms;
//   - the VAT number is required unless not_vat_registered, and then must
//     be absent while the tax number is required; it must have the format
//     of the billing country;
//   - the billing country must be one of allowedBillingCountries (nil
//     allows any);
//   - the person's first and last name and phone number are required; the
//     number must be a valid number of its country;
//   - language and phone type are optional, from fixed lists.
func ValidateEndCustomer(info EndCustomerInfo, allowedBillingCountries []string) (ValidEndCustomer, []FieldError) {
	var fe fieldErrors
	company := fe.company(info.Company, allowedBillingCountries)
	user, phone := fe.user(info.User)
	out := ValidEndCustomer{EndCustomerInfo: EndCustomerInfo{Company: company, User: user}, Phone: phone, Language: company.Language}
	if out.Language == "" && company.BillingAddress != nil {
		out.Language = languageOf(company.BillingAddress.CountryCode)
	}
	return out, fe
}

func (fe *fieldErrors) company(c Company, allowedBillingCountries []string) Company {
	const p = "end_customer."
	out := Company{NotVATRegistered: c.NotVATRegistered}
	out.Name = fe.required(p+"name", c.Name, maxText)
	billingCountry := ""
	if c.BillingAddress == nil {
		fe.add(CodeRequired, p+"billing_address", "is required")
	} else {
		billing := fe.address(p+"billing_address.", *c.BillingAddress)
		out.BillingAddress = &billing
		if regionCode.MatchString(billing.CountryCode) {
			billingCountry = billing.CountryCode
		}
		if billingCountry != "" && allowedBillingCountries != nil && !slices.Contains(allowedBillingCountries, billingCountry) {
			fe.add(CodeNotAllowed, p+"billing_address.country_code", "%s is not served for this offer; bill to one of %s",
				billingCountry, strings.Join(allowedBillingCountries, ", "))
		}
	}
	companyCountry := billingCountry
	if c.CompanyAddress != nil {
		seat := fe.address(p+"company_address.", *c.CompanyAddress)
		out.CompanyAddress = &seat
		if regionCode.MatchString(seat.CountryCode) {
			companyCountry = seat.CountryCode
		}
	}
	form := fe.legalForm(p+"type", c.LegalForm, companyCountry)
	out.LegalForm = form.Code
	out.RegistrationNumber = fe.identifier(p+"company_registration_number", c.RegistrationNumber, form.Registered)
	out.TaxNumber = fe.identifier(p+"tax_number", c.TaxNumber, c.NotVATRegistered)
	out.VATNumber = fe.vatNumber(p+"vat_number", c.VATNumber, c.NotVATRegistered, billingCountry)
	out.Language = strings.ToLower(strings.TrimSpace(c.Language))
	if out.Language != "" && !slices.Contains(Languages, out.Language) {
		fe.add(CodeNotAllowed, p+"language", "must be one of %s", strings.Join(Languages, ", "))
	}
	return out
}

// legalForm checks the company's legal form against the forms of its
// country (any known form when the country is not known).
func (fe *fieldErrors) legalForm(field, code, country string) LegalForm {
	code = strings.ToLower(strings.TrimSpace(code))
	if code == "" {
		fe.add(CodeRequired, field, "is required")
		return LegalForm{}
	}
	form, known := LegalFormByCode(code)
	allowed := LegalForms
	if country != "" {
		allowed = LegalFormsOf(country)
	}
	if !known || !slices.Contains(allowed, form) {
		codes := make([]string, len(allowed))
		for i, f := range allowed {
			codes[i] = f.Code
		}
		where := "Tenure knows"
		if country != "" {
			where = "of companies in " + country
		}
		fe.add(CodeNotAllowed, field, "%q is not a legal form %s; use one of %s", code, where, strings.Join(codes, ", "))
		return LegalForm{Code: code}
	}
	return form
}

// identifier checks a registration or tax number, required or not.
func (fe *fieldErrors) identifier(field, value string, required bool) string {
	if required {
		return fe.required(field, value, maxIdentifier)
	}
	value, _ = fe.text(field, value, maxIdentifier)
	return value
}

// vatNumber checks the VAT number against the billing country's format.
func (fe *fieldErrors) vatNumber(field, value string, notRegistered bool, billingCountry string) string {
	value, ok := fe.text(field, value, maxIdentifier)
	switch {
	case !ok:
		return value
	case notRegistered && value != "":
		fe.add(CodeNotAllowed, field, "must be left out when not_vat_registered is true")
	case notRegistered:
	case value == "":
		fe.add(CodeRequired, field, "is required unless not_vat_registered is true")
	case billingCountry != "":
		normalized, err := NormalizeVATNumber(value, billingCountry)
		if err != nil {
			fe.add(CodeInvalidFormat, field, "%s", err.Error())
			return value
		}
		return normalized
	}
	return value
}

// user checks the person and parses the phone number.
func (fe *fieldErrors) user(u User) (User, Phone) {
	const p = "end_user."
	out := User{
		FirstName: fe.required(p+"first_name", u.FirstName, maxPersonName),
		LastName:  fe.required(p+"last_name", u.LastName, maxPersonName),
	}
	out.PhoneType = strings.ToLower(strings.TrimSpace(u.PhoneType))
	if out.PhoneType != "" && !slices.Contains(PhoneTypes, out.PhoneType) {
		fe.add(CodeNotAllowed, p+"phone_type", "must be %s", strings.Join(PhoneTypes, " or "))
	}
	number, numberOK := fe.text(p+"phone_national_number", u.PhoneNationalNumber, maxPhoneNumber)
	if numberOK && number == "" {
		fe.add(CodeRequired, p+"phone_national_number", "is required")
	}
	country, countryOK := fe.text(p+"phone_country_code", u.PhoneCountryCode, maxPhoneNumber)
	out.PhoneCountryCode, out.PhoneNationalNumber = country, number
	if number == "" || !numberOK || !countryOK {
		return out, Phone{}
	}
	international := strings.HasPrefix(number, "+") || strings.HasPrefix(number, "00")
	region := ""
	switch {
	case country == "" && !international:
		fe.add(CodeRequired, p+"phone_country_code", "is required unless the number starts with + and its calling code")
		return out, Phone{}
	case country == "" && strings.HasPrefix(number, "00"):
		number = "+" + strings.TrimPrefix(number, "00")
	case country != "":
		var ok bool
		if region, ok = phoneRegion(country); !ok {
			fe.add(CodeInvalidFormat, p+"phone_country_code", "must be a country code such as DE or a calling code such as +49")
			return out, Phone{}
		}
	}
	phone, kind, ok := parsePhone(region, number)
	if !ok {
		where := "an international number"
		if region != "" {
			where = "a number of " + region
		}
		fe.add(CodeInvalidFormat, p+"phone_national_number", "is not a valid phone number: expected %s", where)
		return out, Phone{}
	}
	out.PhoneCountryCode, out.PhoneNationalNumber = phone.CountryCode, phone.National
	if out.PhoneType == "" {
		out.PhoneType = kind
	}
	return out, phone
}

// languageOf is the language of documents for a billing country.
func languageOf(country string) string {
	switch country {
	case "DE", "AT", "CH", "LU":
		return "de"
	case "NL", "BE":
		return "nl"
	}
	return "en"
}
