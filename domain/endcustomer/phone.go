package endcustomer

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// Phone is a phone number read by libphonenumber's rules, in the forms the
// API shows.
type Phone struct {
	// CountryCode is the number's country, ISO 3166-1 (DE).
	CountryCode string
	// CountryPrefix is its calling code with a plus (+49).
	CountryPrefix string
	// InternationalFormat is written for dialling from abroad (+49 30 1234567).
	InternationalFormat string
	// National is written for dialling within the country (030 1234567).
	National string
	// Number is E.164 (+49301234567).
	Number string
}

// The phone types a customer may name.
const (
	PhoneMobile   = "mobile"
	PhoneLandline = "landline"
)

// PhoneTypes are the phone types a customer may name (end_user.phone_type).
var PhoneTypes = []string{PhoneMobile, PhoneLandline}

var (
	regionCode  = regexp.MustCompile(`^[A-Z]{2}$`)
	callingCode = regexp.MustCompile(`^(?:\+|00)?([1-9]\d{0,2})$`)
)

// phoneRegion reads the country of a phone number: an ISO 3166-1 code
// (DE, de) or a calling code (+49, 0049, 49), which stands for its main
// country. False when it is neither.
func phoneRegion(country string) (string, bool) {
	country = strings.ToUpper(strings.TrimSpace(country))
	if regionCode.MatchString(country) {
		return country, phonenumbers.GetCountryCodeForRegion(country) != 0
	}
	if m := callingCode.FindStringSubmatch(strings.ReplaceAll(country, " ", "")); m != nil {
		code, _ := strconv.Atoi(m[1])
		region := phonenumbers.GetRegionCodeForCountryCode(code)
		return region, region != "ZZ"
	}
	return "", false
}

// parsePhone reads a number dialled in a region (a full international
// number needs none) and keeps it when it is a valid number; the phone
// type libphonenumber knows it to be comes with it (mobile, landline or
// empty when it cannot tell).
func parsePhone(region, number string) (Phone, string, bool) {
	n, err := phonenumbers.Parse(number, region)
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return Phone{}, "", false
	}
	p := Phone{
		CountryCode:         phonenumbers.GetRegionCodeForNumber(n),
		CountryPrefix:       "+" + strconv.Itoa(int(n.GetCountryCode())),
		InternationalFormat: phonenumbers.Format(n, phonenumbers.INTERNATIONAL),
		National:            phonenumbers.Format(n, phonenumbers.NATIONAL),
		Number:              phonenumbers.Format(n, phonenumbers.E164),
	}
	kind := ""
	switch phonenumbers.GetNumberType(n) {
	case phonenumbers.MOBILE:
		kind = PhoneMobile
	case phonenumbers.FIXED_LINE:
		kind = PhoneLandline
	}
	return p, kind, true
}
