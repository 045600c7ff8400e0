package endcustomer

import (
	"regexp"
	"slices"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Address is a postal address as the API sends it.
type Address struct {
	Line1       string
	Line2       string
	PostalCode  string
	City        string
	Region      string
	CountryCode string
}

// ShippingAddress is where an order is shipped: an address and who
// receives it.
type ShippingAddress struct {
	Address
	RecipientName string
}

// postalCode is the shape of the postal codes of one country.
type postalCode struct {
	pattern *regexp.Regexp
	shape   string
}

func postal(pattern, shape string) postalCode {
	return postalCode{regexp.MustCompile(`^(?:` + pattern + `)$`), shape}
}

// postalCodes are the formats of the countries Tenure knows; elsewhere a
// postal code is 2 to 16 letters, digits, spaces and hyphens.
var postalCodes = map[string]postalCode{
	"AT": postal(`\d{4}`, "4 digits, such as 1010"),
	"BE": postal(`\d{4}`, "4 digits, such as 1000"),
	"CH": postal(`\d{4}`, "4 digits, such as 8001"),
	"DE": postal(`\d{5}`, "5 digits, such as 10115"),
	"ES": postal(`\d{5}`, "5 digits, such as 28001"),
	"FR": postal(`\d{5}`, "5 digits, such as 75001"),
	"IT": postal(`\d{5}`, "5 digits, such as 00184"),
	"LU": postal(`(?:L-?)?\d{4}`, "4 digits, optionally after L-, such as L-1111"),
	"NL": postal(`\d{4} ?[A-Z]{2}`, "4 digits and 2 letters, such as 1012 AB"),
}

var otherPostalCode = regexp.MustCompile(`^[A-Z0-9][A-Z0-9 -]{1,15}$`)

// maxText is the longest free text of a name or address line.
const maxText = 255

// address checks an address whose fields' JSON paths start with prefix
// (billing_address. or empty) and returns it trimmed, with an upper-case
// country and postal code. Line 1, the postal code, the city and the
// country are required.
func (fe *fieldErrors) address(prefix string, a Address) Address {
	out := Address{
		Line1: fe.required(prefix+"line1", a.Line1, maxText),
		City:  fe.required(prefix+"city", a.City, maxText),
	}
	out.Line2, _ = fe.text(prefix+"line2", a.Line2, maxText)
	out.Region, _ = fe.text(prefix+"region", a.Region, maxText)
	out.CountryCode = fe.country(prefix+"country_code", a.CountryCode)
	code, ok := fe.text(prefix+"postal_code", strings.ToUpper(a.PostalCode), 16)
	out.PostalCode = code
	if !ok {
		return out
	}
	format, known := postalCodes[out.CountryCode]
	switch {
	case code == "":
		fe.add(CodeRequired, prefix+"postal_code", "is required")
	case known && !format.pattern.MatchString(code):
		fe.add(CodeInvalidFormat, prefix+"postal_code", "must be a postal code of %s: %s", out.CountryCode, format.shape)
	case !known && !otherPostalCode.MatchString(code):
		fe.add(CodeInvalidFormat, prefix+"postal_code", "must be 2 to 16 letters, digits, spaces or hyphens")
	}
	return out
}

// country checks a required ISO 3166-1 alpha-2 country code and returns it
// in upper case.
func (fe *fieldErrors) country(field, code string) string {
	code = strings.ToUpper(strings.TrimSpace(code))
	switch {
	case code == "":
		fe.add(CodeRequired, field, "is required")
	case !regionCode.MatchString(code) || phonenumbers.GetCountryCodeForRegion(code) == 0:
		fe.add(CodeInvalidFormat, field, "must be an ISO 3166-1 alpha-2 country code such as DE")
	}
	return code
}

// ValidateShippingAddress checks a shipping address under a JSON path
// (empty for a body that is the address itself) and returns it
// normalized. allowedCountries, when not nil, are the countries shipped
// to. The recipient's name is optional.
func ValidateShippingAddress(path string, a ShippingAddress, allowedCountries []string) (ShippingAddress, []FieldError) {
	var fe fieldErrors
	prefix := path
	if prefix != "" {
		prefix += "."
	}
	out := ShippingAddress{Address: fe.address(prefix, a.Address)}
	out.RecipientName, _ = fe.text(prefix+"recipient_name", a.RecipientName, maxText)
	if c := out.CountryCode; allowedCountries != nil && regionCode.MatchString(c) && !slices.Contains(allowedCountries, c) {
		fe.add(CodeNotAllowed, prefix+"country_code", "%s is not shipped to; ship to one of %s", c, strings.Join(allowedCountries, ", "))
	}
	return out, fe
}
