package risk

import (
	"slices"
	"strings"
	"unicode"

	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/optional"
)

// CompanyKeys are the keys that identify an offer's customer company
// across sellers: its VAT id ("vat:DE123456789"), its registration number
// with its country ("reg:DE:HRB12345") and its normalised name with the
// normalised address it gave ("name:kunde gmbh|DE|10115|invalidenstr 1"),
// each where known, sorted. Two offers are of the same company when they
// share a key; an offer without any key matches no other.
//
// Normalising: letters and digits are kept (names and streets lower-case,
// ids and postal codes upper-case), other characters dropped, runs of
// spaces made one, so "Kunde G.m.b.H." is "kunde gmbh".
func CompanyKeys(d offers.Document) []string {
	company := optional.Value(d.Customer.Company)
	end := optional.Value(d.EndCustomer())
	address := end.CompanyAddress
	if address == nil {
		address = company.BillingAddress
	}
	country := ""
	if address != nil {
		country = strings.ToUpper(strings.TrimSpace(address.CountryCode))
	}
	var keys []string
	if vat := identifier(optional.Value(company.VATNumber)); vat != "" {
		keys = append(keys, "vat:"+vat)
	}
	if reg := identifier(end.RegistrationNumber); reg != "" {
		keys = append(keys, "reg:"+country+":"+reg)
	}
	if name := words(optional.Value(company.Name)); name != "" && address != nil {
		keys = append(keys, "name:"+strings.Join([]string{name, country, identifier(address.PostalCode), words(address.Line1)}, "|"))
	}
	slices.Sort(keys)
	return keys
}

// identifier keeps an id's letters and digits, upper-case.
func identifier(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToUpper(r)
		}
		return -1
	}, s)
}

// words keeps a text's letters, digits and single spaces, lower-case.
func words(s string) string {
	kept := strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			return unicode.ToLower(r)
		case unicode.IsSpace(r):
			return ' '
		}
		return -1
	}, s)
	return strings.Join(strings.Fields(kept), " ")
}
