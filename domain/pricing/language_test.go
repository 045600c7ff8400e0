package pricing

import "testing"

func TestParseAcceptLanguage(t *testing.T) {
	cases := map[string]Language{
		"":                             English,
		"de":                           German,
		"de-DE,de;q=0.9,en;q=0.8":      German,
		"en;q=0.5, nl;q=0.9":           Dutch,
		"fr-FR, nl-BE;q=0.7, de;q=0.6": Dutch,
		"fr, it":                       English,
		"de;q=0, en":                   English,
		"NL":                           Dutch,
		"de;q=0.8, nl;q=0.8":           German,
		"de;q=abc, nl;q=0.1":           Dutch,
		"de;q=1.5, nl;q=0.1":           Dutch,
		"*;q=0.9, de;q=0.5":            English,
		" de-AT ; q=0.3 , fr":          German,
	}
	for header, want := range cases {
		if got := ParseAcceptLanguage(header); got != want {
			t.Errorf("%q: got %s, want %s", header, got, want)
		}
	}
}

func TestFormat(t *testing.T) {
	cases := []struct {
		lang     Language
		currency string
		minor    int64
		want     string
	}{
		{English, "EUR", 123456, "€1,234.56"},
		{German, "EUR", 123456, "1.234,56 €"},
		{Dutch, "EUR", 123456, "€ 1.234,56"},
		{English, "EUR", 5, "€0.05"},
		{English, "GBP", 100000000, "£1,000,000.00"},
		{German, "CHF", 990, "CHF 9,90"},
		{English, "USD", -1050, "$-10.50"},
	}
	for _, c := range cases {
		if got := c.lang.Format(c.currency, c.minor); got != c.want {
			t.Errorf("%s %s %d: got %q, want %q", c.lang, c.currency, c.minor, got, c.want)
		}
	}
}

func TestSummaries(t *testing.T) {
	terms := []Term{{12, eur(9500, 11305, 1900)}, {36, eur(2345, 2791, 1900)}}
	cases := []struct {
		lang      Language
		supported bool
		terms     []Term
		want      string
	}{
		{English, true, terms, "Rent from €23.45/month (excl. VAT)"},
		{German, true, terms, "Mieten ab 23,45 €/Monat (zzgl. MwSt.)"},
		{Dutch, true, terms, "Huren vanaf € 23,45/maand (excl. btw)"},
		{English, true, nil, "Available to buy only, not to rent"},
		{German, false, terms, "Nicht finanzierbar"},
		{Language("fr"), false, nil, "Not available for financing"},
	}
	for _, c := range cases {
		if got := c.lang.Summary(c.supported, c.terms); got != c.want {
			t.Errorf("%s: got %q, want %q", c.lang, got, c.want)
		}
	}
	if got := Dutch.CartRentFrom(eur(12345, 0, 0)); got != "Huur de hele winkelwagen vanaf € 123,45/maand (excl. btw)" {
		t.Errorf("cart: %q", got)
	}
}
