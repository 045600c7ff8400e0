package catalogcsv_test

import (
	"strings"
	"testing"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
)

func TestParseAmountAccepts(t *testing.T) {
	cases := []struct {
		in   string
		want int64
	}{
		{"1234", 123400},
		{"1234.5", 123450},
		{"1234,5", 123450},
		{"1234,50", 123450},
		{"1234.05", 123405},
		{"12,34", 1234},
		{"1.234,56", 123456},
		{"1,234.56", 123456},
		{"1.234,5", 123450},
		{"1.234.567", 123456700},
		{"1,234,567", 123456700},
		{"1,234,567.8", 123456780},
		{"1.234.567,89", 123456789},
		{"0.5", 50},
		{"0,01", 1},
		{"0", 0},
		{"007", 700},
		{" 12.30 ", 1230},
		{"1000000000", catalog.MaxAmount},
		{"1,000,000,000.00", catalog.MaxAmount},
	}
	for _, c := range cases {
		got, err := catalogcsv.ParseAmount(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseAmount(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

func TestParseAmountRejects(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "empty"},
		{"   ", "empty"},
		{"1,234", "ambiguous"},
		{"1.234", "ambiguous"},
		{"999,999", "ambiguous"},
		{"1234,567", "ambiguous"},
		{"-5", "sign"},
		{"+5", "sign"},
		{"5-", "not an amount"},
		{"1.2345", "more than 2 decimals"},
		{"1.234,567", "more than 2 decimals"},
		{".567", "more than 2 decimals"},
		{"1.", "no digits after"},
		{"1.234,", "no digits after"},
		{".5", "digit before"},
		{",50", "digit before"},
		{"1,23,456.00", "misplaced"},
		{"1.234.56", "misplaced"},
		{"1234.567.890", "misplaced"},
		{"1,,234.00", "misplaced"},
		{",234.00", "misplaced"},
		{"1.234,56.78", "mixes"},
		{"1,2.3,4", "mixes"},
		{"12a", "not an amount"},
		{"1e5", "not an amount"},
		{"1 234,56", "not an amount"},
		{"1'234.56", "not an amount"},
		{"€5", "not an amount"},
		{"5 EUR", "not an amount"},
		{"١٢٣", "not an amount"},
		{"1000000000.01", "too large"},
		{"1,000,000,001.00", "too large"},
		{"99999999999999999999999999999999", "too large"},
	}
	for _, c := range cases {
		got, err := catalogcsv.ParseAmount(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseAmount(%q) = %d, %v; want an error saying %q", c.in, got, err, c.want)
		}
	}
}

func TestParseBool(t *testing.T) {
	for _, s := range []string{"true", "TRUE", "True", "1", "yes", "YES", "Yes", "y", "Y", " yes "} {
		if v, err := catalogcsv.ParseBool(s); err != nil || !v {
			t.Errorf("ParseBool(%q) = %v, %v; want true", s, v, err)
		}
	}
	for _, s := range []string{"false", "FALSE", "False", "0", "no", "NO", "No", "n", "N", "\tfalse "} {
		if v, err := catalogcsv.ParseBool(s); err != nil || v {
			t.Errorf("ParseBool(%q) = %v, %v; want false", s, v, err)
		}
	}
	for _, s := range []string{"", "maybe", "2", "ja", "t", "f", "on", "yess"} {
		if _, err := catalogcsv.ParseBool(s); err == nil || !strings.Contains(err.Error(), "true or false") {
			t.Errorf("ParseBool(%q): error %v", s, err)
		}
	}
}
