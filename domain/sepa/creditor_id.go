package sepa

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidCreditorID wraps every refusal of a creditor identifier.
var ErrInvalidCreditorID = errors.New("invalid SEPA creditor identifier")

// CreditorID is a SEPA creditor identifier (EPC262-08, "Creditor
// Identifier Overview"): the country code, two check digits, a creditor
// business code of three characters the creditor may choose (ZZZ when
// none) and the national identifier, e.g. DE98ZZZ09999999999.
//
// The check digits are ISO 7064 MOD 97-10 over the national identifier and
// the country, the business code left out, so a creditor may change it
// without a new identifier (two identifiers differing only there name the
// same creditor: compare with National).
type CreditorID string

// ParseCreditorID reads a creditor identifier, spaces and case ignored. It
// checks its form (a SEPA country, at most 35 letters and digits) and its
// check digits; German ones (issued by the Bundesbank) have 18 characters.
func ParseCreditorID(s string) (CreditorID, error) {
	id := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	switch {
	case id == "":
		return "", fmt.Errorf("%w: it is empty", ErrInvalidCreditorID)
	case !isAlnum(id):
		return "", fmt.Errorf("%w: it has only letters and digits", ErrInvalidCreditorID)
	case len(id) < 8 || len(id) > 35:
		return "", fmt.Errorf("%w: it has 8 to 35 characters, got %d", ErrInvalidCreditorID, len(id))
	case !isLetters(id[:2]) || !isDigits(id[2:4]):
		return "", fmt.Errorf("%w: it starts with a country code and two check digits", ErrInvalidCreditorID)
	}
	country := id[:2]
	if _, ok := sepaCountries[country]; !ok {
		return "", fmt.Errorf("%w: country %s is not in the SEPA schemes", ErrInvalidCreditorID, country)
	}
	if country == "DE" && len(id) != 18 {
		return "", fmt.Errorf("%w: a German creditor identifier has 18 characters, got %d", ErrInvalidCreditorID, len(id))
	}
	if want := fmt.Sprintf("%02d", checkDigits(id[7:], country)); id[2:4] != want {
		return "", fmt.Errorf("%w: the check digits are %s, the identifier's digits give %s", ErrInvalidCreditorID, id[2:4], want)
	}
	return CreditorID(id), nil
}

// Country is the identifier's country code ("" for the zero identifier).
func (c CreditorID) Country() string {
	if len(c) < 8 {
		return ""
	}
	return string(c[:2])
}

// National is the identifier without the business code: the part that
// names the creditor ("" for the zero identifier).
func (c CreditorID) National() string {
	if len(c) < 8 {
		return ""
	}
	return string(c[:4]) + string(c[7:])
}
