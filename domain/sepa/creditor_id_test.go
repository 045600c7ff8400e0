package sepa

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCreditorIDChecksTheDigitsOverTheNationalPart(t *testing.T) {
	for _, tc := range []struct {
		in, want, national string
	}{
		{"DE98ZZZ09999999999", "DE98ZZZ09999999999", "DE9809999999999"}, // the and the Bundesbank's example
		{"de98 zzz 0999 9999 999", "DE98ZZZ09999999999", "DE9809999999999"},
		{"DE98ABC09999999999", "DE98ABC09999999999", "DE9809999999999"}, // the business code is not checked
		{"AT61ZZZ01234567890", "AT61ZZZ01234567890", "AT6101234567890"},
		{"BE69ZZZ050D000000008", "BE69ZZZ050D000000008", "BE69050D000000008"},
		{"BE68ZZZ0123456789", "BE68ZZZ0123456789", "BE680123456789"},
		{"FR72ZZZ123456", "FR72ZZZ123456", "FR72123456"},
		{"IT66ZZZA1B2C3D4E5F6G7H8", "IT66ZZZA1B2C3D4E5F6G7H8", "IT66A1B2C3D4E5F6G7H8"},
		{"LU27ZZZ0000000000123456789", "LU27ZZZ0000000000123456789", "LU270000000000123456789"},
		{"NL79ZZZ999999990000", "NL79ZZZ999999990000", "NL79999999990000"},
	} {
		got, err := ParseCreditorID(tc.in)
		if err != nil || string(got) != tc.want || got.National() != tc.national || got.Country() != tc.want[:2] {
			t.Errorf("ParseCreditorID(%q) = %s (%s), %v", tc.in, got, got.National(), err)
		}
	}
}

func TestParseCreditorIDRefusesWithTheReason(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "it is empty"},
		{"a dash", "DE98-ZZZ-09999999999", "only letters and digits"},
		{"too short", "DE98ZZZ", "8 to 35 characters, got 7"},
		{"too long", "DE98ZZZ" + strings.Repeat("1", 29), "8 to 35 characters, got 36"},
		{"no check digits", "DEXXZZZ09999999999", "starts with a country code and two check digits"},
		{"not SEPA", "US98ZZZ09999999999", "country US is not in the SEPA schemes"},
		{"a German one too short", "DE98ZZZ0999999999", "a German creditor identifier has 18 characters, got 17"},
		{"a digit mistyped", "DE98ZZZ09999999998", "the check digits are 98, the identifier's digits give"},
		{"wrong check digits", "DE79ZZZ00000000001", "the check digits are 79, the identifier's digits give 09"},
		{"the Dutch example with a wrong check", "NL97ZZZ123456780001", "the check digits are 97, the identifier's digits give 42"},
	} {
		got, err := ParseCreditorID(tc.in)
		if err == nil || !errors.Is(err, ErrInvalidCreditorID) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %q gives %q, %v; want %q", tc.name, tc.in, got, err, tc.want)
		}
	}
	if CreditorID("").Country() != "" || CreditorID("").National() != "" {
		t.Error("the zero identifier has parts")
	}
}
