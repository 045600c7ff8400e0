package sepa

// mod97 is the remainder by 97 of the number ISO 7064 MOD 97-10 reads from
// letters and digits, a letter counting as two digits (A = 10 … Z = 35).
// The input holds only 0-9 and A-Z.
func mod97(s string) int {
	r := 0
	for i := range len(s) {
		c := s[i]
		if c >= 'A' {
			r = (r*100 + int(c-'A') + 10) % 97
		} else {
			r = (r*10 + int(c-'0')) % 97
		}
	}
	return r
}

// checkDigits are the two check digits ISO 7064 MOD 97-10 gives a national
// part and a country code (IBAN and creditor identifier alike): 98 minus
// the remainder of national part + country + "00".
func checkDigits(national, country string) int {
	return 98 - mod97(national+country+"00")
}

// isAlnum reports whether s holds only upper-case letters and digits.
func isAlnum(s string) bool {
	for i := range len(s) {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
