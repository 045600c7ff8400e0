package sepa

import (
	"fmt"
	"strings"
)

// BIC is a Business Identifier Code (ISO 9362) of a bank: 8 or 11
// characters. The SEPA schemes do not need it when an IBAN is given (the
// "IBAN-only" rule); files then say NOTPROVIDED, and the zero BIC is no
// BIC.
type BIC string

// ParseBIC reads a BIC: 4 letters (the institution), 2 letters (the
// country), 2 letters or digits (the location), and optionally 3 letters
// or digits (the branch); spaces and case are ignored. An empty string is
// no BIC.
func ParseBIC(s string) (BIC, error) {
	code := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	switch {
	case code == "":
		return "", nil
	case len(code) != 8 && len(code) != 11:
		return "", fmt.Errorf("a BIC has 8 or 11 characters, got %d", len(code))
	case !isLetters(code[:6]):
		return "", fmt.Errorf("a BIC starts with 4 letters of the bank and 2 of its country")
	case !isAlnum(code[6:]):
		return "", fmt.Errorf("a BIC ends with letters or digits (location and branch)")
	}
	return BIC(code), nil
}
