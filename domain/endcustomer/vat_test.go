package endcustomer

import (
	"strings"
	"testing"
)

func TestNormalizeVATNumber(t *testing.T) {
	cases := []struct {
		number, country, want, problem string
	}{
		{"DE123456789", "DE", "DE123456789", ""},
		{"de 123 456 789", "DE", "DE123456789", ""},
		{"123456789", "DE", "DE123456789", ""},
		{"DE12345678", "DE", "", "DE followed by 9 digits, such as DE123456789"},
		{"ATU12345678", "DE", "", "VAT number of the billing country DE"},
		{"ATU12345678", "AT", "ATU12345678", ""},
		{"AT12345678", "AT", "", "ATU followed by 8 digits"},
		{"NL123456789B01", "NL", "NL123456789B01", ""},
		{"NL123456789", "NL", "", "NL followed by 9 digits, B and 2 digits"},
		{"BE 0123.456.789", "BE", "BE0123456789", ""},
		{"BE2123456789", "BE", "", "starting with 0 or 1"},
		{"FR AB 123456789", "FR", "FRAB123456789", ""},
		{"FRIO123456789", "FR", "", "FR followed by"},
		{"IT12345678901", "IT", "IT12345678901", ""},
		{"ESX1234567X", "ES", "ESX1234567X", ""},
		{"LU12345678", "LU", "LU12345678", ""},
		{"EL123456789", "GR", "EL123456789", ""},
		{"SE123456789001", "SE", "SE123456789001", ""},
		{"CHE-123.456.789 MWST", "CH", "CHE-123.456.789 MWST", ""},
		{"che123456789tva", "CH", "CHE-123.456.789 TVA", ""},
		{"123456789", "CH", "CHE-123.456.789", ""},
		{"CHE-123.456.78", "CH", "", "Swiss UID"},
		{"US-12-3456789", "US", "US123456789", ""},
		{"X!", "US", "", "4 to 20 letters and digits"},
	}
	for _, c := range cases {
		got, err := NormalizeVATNumber(c.number, c.country)
		switch {
		case c.problem == "" && (err != nil || got != c.want):
			t.Errorf("%s in %s: got %q, %v; want %q", c.number, c.country, got, err, c.want)
		case c.problem != "" && (err == nil || !strings.Contains(err.Error(), c.problem)):
			t.Errorf("%s in %s: want a problem saying %q, got %q, %v", c.number, c.country, c.problem, got, err)
		}
	}
}

func TestEveryVATFormatAcceptsItsExample(t *testing.T) {
	for country, f := range vatFormats {
		if got, err := NormalizeVATNumber(f.example, country); err != nil || got != f.example {
			t.Errorf("%s: example %s gives %q, %v", country, f.example, got, err)
		}
	}
}
