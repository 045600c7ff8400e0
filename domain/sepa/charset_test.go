package sepa

import (
	"strings"
	"testing"
)

func TestLatinConvertsTextToTheSEPASet(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"Max Mustermann", 70, "Max Mustermann"},
		{"Jürgen Müller-Lüdenscheidt", 70, "Juergen Mueller-Luedenscheidt"},
		{"ÄÖÜ äöü ß ẞ", 70, "AeOeUe aeoeue ss SS"},
		{"Françoise Éléonore Dupré", 70, "Francoise Eleonore Dupre"},
		{"Łukasz Żółć", 70, "Lukasz Zolc"},
		{"Søren Ærø Œuvre", 70, "Soren AEro OEuvre"},
		{"Smith & Söhne GmbH", 70, "Smith + Soehne GmbH"},
		{"O’Brien “The Shop”", 70, "O'Brien 'The Shop'"},
		{"Rent_Co — Berlin", 70, "Rent-Co - Berlin"},
		{"Ação Ñandú İstanbul", 70, "Acao Nandu Istanbul"},
		{"Cyrillic Иван", 70, "Cyrillic ...."},
		{"emoji 🚲 bike", 70, "emoji . bike"},
		{"  many   spaces\tand\nlines  ", 70, "many spaces and lines"},
		{"a@b.de #42 100% *", 70, "a.b.de .42 100. ."},
		{strings.Repeat("ü", 40), 70, strings.Repeat("ue", 35)},
		{"Rechnung 2026-0001 Miete November", 20, "Rechnung 2026-0001 M"},
		{"ends with a space here", 17, "ends with a space"},
		{"", 70, ""},
	} {
		got := latin(tc.in, tc.max)
		if got != tc.want {
			t.Errorf("latin(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		for _, r := range got {
			if !inSEPASet(r) {
				t.Errorf("latin(%q) keeps %q", tc.in, r)
			}
		}
		if len(got) > tc.max {
			t.Errorf("latin(%q, %d) has %d characters", tc.in, tc.max, len(got))
		}
	}
}

func TestParseBICTakesEightOrElevenCharacters(t *testing.T) {
	for in, want := range map[string]BIC{
		"COBADEFFXXX": "COBADEFFXXX", "cobadeff": "COBADEFF", "DEUT DE DB 160": "DEUTDEDB160", "": "", "  ": "",
		"INGBNL2A": "INGBNL2A",
	} {
		if got, err := ParseBIC(in); err != nil || got != want {
			t.Errorf("%q: %s, %v", in, got, err)
		}
	}
	for in, want := range map[string]string{
		"COBADEF":      "8 or 11 characters, got 7",
		"COBADEFFXX":   "8 or 11 characters, got 10",
		"C0BADEFF":     "4 letters of the bank and 2 of its country",
		"COBAD3FF":     "4 letters of the bank and 2 of its country",
		"COBADEF-":     "letters or digits",
		"COBADEFFXX-":  "letters or digits",
		"COBADEFFXXXX": "8 or 11 characters, got 12",
	} {
		if got, err := ParseBIC(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %s, %v, want %q", in, got, err, want)
		}
	}
}
