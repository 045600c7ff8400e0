package endcustomer

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// vatFormat is the shape of the VAT numbers of one country: its prefix
// and the pattern of what follows, as the EU's VIES service lists them
// (and the Swiss UID register, and HMRC for GB).
type vatFormat struct {
	prefix  string
	rest    *regexp.Regexp
	shape   string
	example string
}

func vat(prefix, rest, shape, example string) vatFormat {
	return vatFormat{prefix: prefix, rest: regexp.MustCompile(`^(?:` + rest + `)$`), shape: shape, example: example}
}

// vatFormats are keyed by the billing country (ISO 3166-1); Greece's VAT
// numbers start with EL, Switzerland's UID with CHE.
var vatFormats = map[string]vatFormat{
	"AT": vat("AT", `U\d{8}`, "ATU followed by 8 digits", "ATU12345678"),
	"BE": vat("BE", `[01]\d{9}`, "BE followed by 10 digits starting with 0 or 1", "BE0123456789"),
	"BG": vat("BG", `\d{9,10}`, "BG followed by 9 or 10 digits", "BG123456789"),
	"CY": vat("CY", `\d{8}[A-Z]`, "CY followed by 8 digits and a letter", "CY12345678L"),
	"CZ": vat("CZ", `\d{8,10}`, "CZ followed by 8 to 10 digits", "CZ12345678"),
	"DE": vat("DE", `\d{9}`, "DE followed by 9 digits", "DE123456789"),
	"DK": vat("DK", `\d{8}`, "DK followed by 8 digits", "DK12345678"),
	"EE": vat("EE", `\d{9}`, "EE followed by 9 digits", "EE123456789"),
	"ES": vat("ES", `[A-Z0-9]\d{7}[A-Z0-9]`, "ES followed by 9 characters: a letter or digit, 7 digits, a letter or digit", "ESX1234567X"),
	"FI": vat("FI", `\d{8}`, "FI followed by 8 digits", "FI12345678"),
	"FR": vat("FR", `[0-9A-HJ-NP-Z]{2}\d{9}`, "FR followed by 2 letters or digits and 9 digits", "FR12345678901"),
	"GB": vat("GB", `\d{9}|\d{12}|GD\d{3}|HA\d{3}`, "GB followed by 9 or 12 digits (GD or HA and 3 digits for government departments and health authorities)", "GB123456789"),
	"GR": vat("EL", `\d{9}`, "EL followed by 9 digits", "EL123456789"),
	"HR": vat("HR", `\d{11}`, "HR followed by 11 digits", "HR12345678901"),
	"HU": vat("HU", `\d{8}`, "HU followed by 8 digits", "HU12345678"),
	"IE": vat("IE", `\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W]`, "IE followed by 8 or 9 characters: 7 digits and 1 or 2 letters (or a digit, a letter, 5 digits and a letter)", "IE1234567WA"),
	"IT": vat("IT", `\d{11}`, "IT followed by 11 digits", "IT12345678901"),
	"LT": vat("LT", `\d{9}|\d{12}`, "LT followed by 9 or 12 digits", "LT123456789"),
	"LU": vat("LU", `\d{8}`, "LU followed by 8 digits", "LU12345678"),
	"LV": vat("LV", `\d{11}`, "LV followed by 11 digits", "LV12345678901"),
	"MT": vat("MT", `\d{8}`, "MT followed by 8 digits", "MT12345678"),
	"NL": vat("NL", `\d{9}B\d{2}`, "NL followed by 9 digits, B and 2 digits", "NL123456789B01"),
	"PL": vat("PL", `\d{10}`, "PL followed by 10 digits", "PL1234567890"),
	"PT": vat("PT", `\d{9}`, "PT followed by 9 digits", "PT123456789"),
	"RO": vat("RO", `[1-9]\d{1,9}`, "RO followed by 2 to 10 digits", "RO1234567890"),
	"SE": vat("SE", `\d{10}01`, "SE followed by 12 digits ending in 01", "SE123456789001"),
	"SI": vat("SI", `\d{8}`, "SI followed by 8 digits", "SI12345678"),
	"SK": vat("SK", `\d{10}`, "SK followed by 10 digits", "SK1234567890"),
}

// swissUID is a Swiss enterprise number with its VAT suffix (MWST, TVA or
// IVA by language), once the separators are gone.
var swissUID = regexp.MustCompile(`^CHE(\d{3})(\d{3})(\d{3})(MWST|TVA|IVA)?$`)

// otherVAT is what a VAT number of a country without a known format must
// at least look like.
var otherVAT = regexp.MustCompile(`^[A-Z0-9]{4,20}$`)

// NormalizeVATNumber checks a VAT number against the format of the
// billing country and writes it the way registers do: upper case without
// separators and with the country prefix (DE123456789), or, in
// Switzerland, CHE-123.456.789 MWST. The message says what the number
// should look like.
func NormalizeVATNumber(number, country string) (string, error) {
	compact := strings.ToUpper(strings.NewReplacer(" ", "", ".", "", "-", "", "/", "").Replace(number))
	if country == "CH" {
		if !strings.HasPrefix(compact, "CHE") {
			compact = "CHE" + compact
		}
		m := swissUID.FindStringSubmatch(compact)
		if m == nil {
			return "", errors.New("must be a Swiss UID with its VAT suffix, such as CHE-123.456.789 MWST")
		}
		out := "CHE-" + m[1] + "." + m[2] + "." + m[3]
		if m[4] != "" {
			out += " " + m[4]
		}
		return out, nil
	}
	f, ok := vatFormats[country]
	if !ok {
		if !otherVAT.MatchString(compact) {
			return "", errors.New("must be 4 to 20 letters and digits")
		}
		return compact, nil
	}
	rest := strings.TrimPrefix(compact, f.prefix)
	if !f.rest.MatchString(rest) {
		return "", fmt.Errorf("must be a VAT number of the billing country %s: %s, such as %s", country, f.shape, f.example)
	}
	return f.prefix + rest, nil
}
