package sepa

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The SEPA character set is the Latin set every bank of the schemes must
// take (EPC's SDD and SCT Customer-to-PSP Implementation Guidelines,
// section 1.4 "Character set"):
//
//	a-z A-Z 0-9 / - ? : ( ) . , ' + and the space
//
// Identifiers (message, payment and end-to-end ids, mandate references)
// keep to it strictly; besides, they may neither start nor end with a '/'
// nor contain "//". Names and remittance texts are converted to it
// (latin): banks may take more (the German DK takes umlauts and ß), but
// the set is what all of them take.
func inSEPASet(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/-?:().,'+ ", r)
}

// checkIdentifier refuses an identifier outside the SEPA rules: 1 to max
// characters of the SEPA set, no leading or trailing '/', no "//".
func checkIdentifier(what, s string, max int) error {
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return fmt.Errorf("%s is empty", what)
	case n > max:
		return fmt.Errorf("%s has %d characters, at most %d are allowed", what, n, max)
	}
	for _, r := range s {
		if !inSEPASet(r) {
			return fmt.Errorf("%s contains %q, outside the SEPA character set (a-z A-Z 0-9 / - ? : ( ) . , ' + space)", what, r)
		}
	}
	if strings.HasPrefix(s, "/") || strings.HasSuffix(s, "/") || strings.Contains(s, "//") {
		return fmt.Errorf("%s may not start or end with '/' nor contain \"//\"", what)
	}
	return nil
}

// latinLetters are the conversions of letters that do not decompose into
// a Latin letter and marks; German umlauts are written out as Germans do.
var latinLetters = map[rune]string{
	'Ä': "Ae", 'Ö': "Oe", 'Ü': "Ue", 'ä': "ae", 'ö': "oe", 'ü': "ue", 'ß': "ss", 'ẞ': "SS",
	'Æ': "AE", 'æ': "ae", 'Œ': "OE", 'œ': "oe", 'Ø': "O", 'ø': "o", 'Ł': "L", 'ł': "l",
	'Đ': "D", 'đ': "d", 'Ð': "D", 'ð': "d", 'Þ': "TH", 'þ': "th", 'ı': "i", 'Ŀ': "L", 'ŀ': "l",
	'&': "+", '’': "'", '‘': "'", '`': "'", '´': "'", '"': "'", '“': "'", '”': "'", '„': "'",
	'–': "-", '—': "-", '_': "-",
}

// latin converts free text (a name, a remittance text) to the SEPA set and
// cuts it to max characters: umlauts written out, accents dropped, other
// characters a '.', runs of spaces one space.
func latin(s string, max int) string {
	var b strings.Builder
	space := true // drop leading spaces
	for _, r := range norm.NFC.String(s) {
		var out string
		switch {
		case unicode.IsSpace(r):
			if space {
				continue
			}
			out = " "
		case inSEPASet(r):
			out = string(r)
		case latinLetters[r] != "":
			out = latinLetters[r]
		default:
			out = stripMarks(r)
		}
		space = out == " "
		b.WriteString(out)
	}
	text := strings.TrimRight(b.String(), " ")
	if len(text) > max { // all ASCII now: bytes are characters
		text = strings.TrimRight(text[:max], " ")
	}
	return text
}

// stripMarks is a letter without its accents (é → e), or "." for a
// character the SEPA set has no counterpart for.
func stripMarks(r rune) string {
	var out []rune
	for _, d := range norm.NFD.String(string(r)) {
		switch {
		case unicode.Is(unicode.Mn, d):
		case inSEPASet(d):
			out = append(out, d)
		default:
			return "."
		}
	}
	if len(out) == 0 {
		return "."
	}
	return string(out)
}
