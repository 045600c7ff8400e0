package sepa

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
)

// registryExamples are the IBAN Registry's example IBANs, one per SEPA
// country code.
var registryExamples = map[string]string{
	"AD": "AD1200012030200359100100",
	"AL": "AL47212110090000000235698741",
	"AT": "AT611904300234573201",
	"BE": "BE68539007547034",
	"BG": "BG80BNBG96611020345678",
	"CH": "CH9300762011623852957",
	"CY": "CY17002001280000001200527600",
	"CZ": "CZ6508000000192000145399",
	"DE": "DE89370400440532013000",
	"DK": "DK5000400440116243",
	"EE": "EE382200221020145685",
	"ES": "ES9121000418450200051332",
	"FI": "FI2112345600000785",
	"FR": "FR1420041010050500013M02606",
	"GB": "GB29NWBK60161331926819",
	"GI": "GI75NWBK000000007099453",
	"GR": "GR1601101250000000012300695",
	"HR": "HR1210010051863000160",
	"HU": "HU42117730161111101800000000",
	"IE": "IE29AIBK93115212345678",
	"IS": "IS140159260076545510730339",
	"IT": "IT60X0542811101000000123456",
	"LI": "LI21088100002324013AA",
	"LT": "LT121000011101001000",
	"LU": "LU280019400644750000",
	"LV": "LV80BANK0000435195001",
	"MC": "MC5811222000010123456789030",
	"MD": "MD24AG000225100013104168",
	"ME": "ME25505000012345678951",
	"MK": "MK07250120000058984",
	"MT": "MT84MALT011000012345MTLCAST001S",
	"NL": "NL91ABNA0417164300",
	"NO": "NO9386011117947",
	"PL": "PL61109010140000071219812874",
	"PT": "PT50000201231234567890154",
	"RO": "RO49AAAA1B31007593840000",
	"RS": "RS35260005601001611379",
	"SE": "SE4550000000058398257466",
	"SI": "SI56263300012039086",
	"SK": "SK3112000000198742637541",
	"SM": "SM86U0322509800000000270100",
	"VA": "VA59001123000012345678",
}

func TestEverySEPACountryHasAConsistentFormatAndAValidExample(t *testing.T) {
	for country, format := range sepaCountries {
		sum, s := 0, format.bban
		for s != "" {
			end := strings.IndexAny(s, "nac")
			n, err := strconv.Atoi(s[:end])
			if err != nil || end < 1 {
				t.Fatalf("%s: unreadable structure %q", country, format.bban)
			}
			sum += n
			s = s[end+1:]
		}
		if sum+4 != format.length {
			t.Errorf("%s: the structure %s has %d characters, the length says %d", country, format.bban, sum+4, format.length)
		}
		example, ok := registryExamples[country]
		if !ok {
			t.Errorf("%s has no example", country)
			continue
		}
		iban, err := ParseIBAN(example)
		if err != nil {
			t.Errorf("%s: %v", example, err)
			continue
		}
		if iban.Unmasked() != example || iban.Country() != country {
			t.Errorf("%s read as %s of %s", example, iban.Unmasked(), iban.Country())
		}
	}
	if len(registryExamples) != len(sepaCountries) {
		t.Errorf("%d examples for %d countries", len(registryExamples), len(sepaCountries))
	}
}

func TestParseIBANNormalisesWhatPeopleType(t *testing.T) {
	for _, in := range []string{
		"DE89370400440532013000",
		"DE89 3704 0044 0532 0130 00",
		"de89 3704 0044 0532 0130 00",
		"  De89370400440532013000\t",
		"DE89\u00a03704\u00a00044\u00a00532\u00a00130\u00a000", // no-break spaces from a PDF
		"D E 8 9 3 7 0 4 0 0 4 4 0 5 3 2 0 1 3 0 0 0",
	} {
		iban, err := ParseIBAN(in)
		if err != nil || iban.Unmasked() != "DE89370400440532013000" {
			t.Errorf("ParseIBAN(%q) = %s, %v", in, iban.Unmasked(), err)
		}
	}
}

func TestParseIBANRefusesWithTheReasonAndNeverTheNumber(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "it is empty"},
		{"blank", "   ", "it is empty"},
		{"a dash", "DE89-3704-0044-0532-0130-00", "only letters and digits"},
		{"an umlaut", "DE89370400440532013ÄÖ", "only letters and digits"},
		{"no country", "8937040044053201300012", "starts with a country code"},
		{"letters for check digits", "DEAB370400440532013000", "starts with a country code"},
		{"too short to be one", "DE89", "starts with a country code"},
		{"not SEPA: Brazil", "BR1800360305000010009795493C1", "country BR is not in the SEPA schemes"},
		{"not SEPA: Turkey", "TR330006100519786457841326", "country TR is not in the SEPA schemes"},
		{"not SEPA: Saudi Arabia", "SA0380000000608010167519", "country SA is not in the SEPA schemes"},
		{"not a country", "XX89370400440532013000", "country XX is not in the SEPA schemes"},
		{"a digit missing", "DE8937040044053201300", "an IBAN of DE has 22 characters, this one 21"},
		{"a digit too many", "DE893704004405320130000", "an IBAN of DE has 22 characters, this one 23"},
		{"a German IBAN with letters", "DE27ABCD0044053201300B", "does not have the structure of DE"},
		{"a Dutch bank code with digits", "NL9112340417164300", "does not have the structure of NL"},
		{"one digit mistyped", "DE89370400440532013001", "the check digits do not match"},
		{"two digits swapped", "DE89370400440532010300", "the check digits do not match"},
		{"wrong check digits", "DE88370400440532013000", "the check digits do not match"},
		{"check digits 00", "DE00370400440532013000", "the check digits do not match"},
		{"a British IBAN mistyped", "GB29NWBK60161331926818", "the check digits do not match"},
	} {
		iban, err := ParseIBAN(tc.in)
		if err == nil {
			t.Errorf("%s: %q accepted as %s", tc.name, tc.in, iban.Unmasked())
			continue
		}
		if !errors.Is(err, ErrInvalidIBAN) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if compact := strings.ReplaceAll(tc.in, " ", ""); len(compact) > 6 && strings.Contains(err.Error(), compact[4:]) {
			t.Errorf("%s: the error %q shows the number", tc.name, err)
		}
	}
}

func TestMaskedKeepsCountryCheckDigitsAndTheLastTwo(t *testing.T) {
	for in, want := range map[string]string{
		"DE89370400440532013000":          "DE89 **** **** **** **** 00",
		"NL91ABNA0417164300":              "NL91 **** **** **** 00",
		"NO9386011117947":                 "NO93 **** **** *47",
		"BE68539007547034":                "BE68 **** **** **34",
		"MT84MALT011000012345MTLCAST001S": "MT84 **** **** **** **** **** **** *1S",
		"FR1420041010050500013M02606":     "FR14 **** **** **** **** **** *06",
	} {
		iban, err := ParseIBAN(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := iban.Masked(); got != want {
			t.Errorf("%s masks to %q, want %q", in, got, want)
		}
	}
	if (IBAN{}).Masked() != "" || (IBAN{}).Unmasked() != "" || (IBAN{}).Country() != "" || !(IBAN{}).IsZero() {
		t.Error("the zero IBAN is not empty")
	}
}

// The number must not appear anywhere an IBAN is printed, logged or
// encoded by accident.
func TestAnIBANNeverPrintsUnmasked(t *testing.T) {
	iban, err := ParseIBAN("DE89370400440532013000")
	if err != nil {
		t.Fatal(err)
	}
	const masked = "DE89 **** **** **** **** 00"
	type holder struct {
		Exported IBAN
		hidden   IBAN
		Pointer  *IBAN
	}
	h := holder{Exported: iban, hidden: iban, Pointer: &iban}
	var outputs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10s", "%-40v", "%T %v"} {
		outputs = append(outputs, fmt.Sprintf(verb, iban), fmt.Sprintf(verb, h), fmt.Sprintf(verb, &h), fmt.Sprintf(verb, []IBAN{iban}), fmt.Sprintf(verb, map[string]IBAN{"k": iban}))
	}
	outputs = append(outputs, fmt.Sprint(iban), fmt.Sprintln(h), iban.String(), fmt.Errorf("collecting from %v failed", iban).Error())

	jsonOut, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, string(jsonOut))
	xmlOut, err := xml.Marshal(struct {
		XMLName xml.Name `xml:"x"`
		IBAN    IBAN     `xml:"iban"`
		Attr    IBAN     `xml:"attr,attr"`
	}{IBAN: iban, Attr: iban})
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, string(xmlOut))

	var logs bytes.Buffer
	for _, handler := range []slog.Handler{slog.NewJSONHandler(&logs, nil), slog.NewTextHandler(&logs, nil)} {
		log := slog.New(handler)
		log.Info("mandate", "iban", iban, "holder", h, slog.Any("pointer", &iban), slog.Group("g", "iban", iban))
		log.Info(fmt.Sprint(iban))
	}
	outputs = append(outputs, logs.String())

	for _, out := range outputs {
		for _, digits := range []string{"370400440532013000", "3704", "0532", "0130"} {
			if strings.Contains(out, digits) {
				t.Errorf("%q shows %s", out, digits)
			}
		}
	}
	if !strings.Contains(string(jsonOut), `"Exported":"`+masked+`"`) {
		t.Errorf("JSON %s does not carry the masked IBAN", jsonOut)
	}
	if got := fmt.Sprintf("%q", iban); got != strconv.Quote(masked) {
		t.Errorf("%%q = %s", got)
	}
	if !strings.Contains(logs.String(), `"iban":"`+masked+`"`) {
		t.Errorf("the JSON log does not carry the masked IBAN: %s", logs.String())
	}
}

func TestAMaskedIBANDoesNotDecodeBack(t *testing.T) {
	iban, _ := ParseIBAN("DE89370400440532013000")
	data, _ := json.Marshal(struct{ IBAN IBAN }{iban})
	var back struct{ IBAN IBAN }
	if err := json.Unmarshal(data, &back); err == nil {
		t.Errorf("%s decoded into %s", data, back.IBAN.Unmasked())
	}
}

// Handed to database/sql or pgx by mistake, an IBAN fails instead of
// storing its masked text.
func TestAnIBANIsNoDatabaseValue(t *testing.T) {
	iban, _ := ParseIBAN("DE89370400440532013000")
	var v driver.Valuer = iban
	if got, err := v.Value(); err == nil || got != nil || !strings.Contains(err.Error(), "seal") {
		t.Errorf("Value() = %v, %v", got, err)
	}
	if _, err := driver.DefaultParameterConverter.ConvertValue(iban); err == nil {
		t.Error("database/sql converts an IBAN")
	}
	for _, format := range []int16{pgtype.TextFormatCode, pgtype.BinaryFormatCode} {
		if buf, err := pgtype.NewMap().Encode(pgtype.TextOID, format, iban, nil); err == nil {
			t.Errorf("pgx encodes an IBAN as text %q", buf)
		}
	}
}

func TestEqualComparesNumbers(t *testing.T) {
	a, _ := ParseIBAN("DE89370400440532013000")
	b, _ := ParseIBAN("de89 3704 0044 0532 0130 00")
	c, _ := ParseIBAN("NL91ABNA0417164300")
	for _, tc := range []struct {
		x, y IBAN
		want bool
	}{
		{a, b, true}, {a, c, false}, {a, IBAN{}, false}, {IBAN{}, a, false}, {IBAN{}, IBAN{}, true},
	} {
		if got := tc.x.Equal(tc.y); got != tc.want {
			t.Errorf("%v = %v: %v", tc.x, tc.y, got)
		}
	}
}
