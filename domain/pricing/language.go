package pricing

import (
	"strconv"
	"strings"
)

// Language is a language summaries are written in.
type Language string

// The languages of summaries; English is the fallback.
const (
	English Language = "en"
	German  Language = "de"
	Dutch   Language = "nl"
)

// ParseAcceptLanguage picks the summary language from an Accept-Language
// header (RFC 9110 §12.5.4): the supported language with the highest
// q-value, the earlier one on a tie; English when none is acceptable.
// A region (de-AT) counts for its language; `*` stands for English; a
// range with q=0 or an unreadable q-value is not acceptable.
func ParseAcceptLanguage(header string) Language {
	best, bestQ := English, 0.0
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		tag := strings.ToLower(strings.TrimSpace(fields[0]))
		q, ok := qValue(fields[1:])
		if !ok || q <= bestQ {
			continue
		}
		primary, _, _ := strings.Cut(tag, "-")
		switch lang := Language(primary); lang {
		case English, German, Dutch:
			best, bestQ = lang, q
		default:
			if tag == "*" {
				best, bestQ = English, q
			}
		}
	}
	return best
}

// qValue reads the weight among a range's parameters: 1 when absent.
func qValue(params []string) (float64, bool) {
	for _, p := range params {
		name, value, found := strings.Cut(strings.TrimSpace(p), "=")
		if !found || !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || q < 0 || q > 1 {
			return 0, false
		}
		return q, true
	}
	return 1, true
}

// texts are the summary sentences of one language; %s is a formatted amount.
type texts struct {
	rentFrom, cartRentFrom, payNowOnly, notAvailable, cartNotRentable string
}

var sentences = map[Language]texts{
	English: {
		rentFrom:        "Rent from %s/month (excl. VAT)",
		cartRentFrom:    "Rent the whole cart from %s/month (excl. VAT)",
		payNowOnly:      "Available to buy only, not to rent",
		notAvailable:    "Not available for financing",
		cartNotRentable: "Some products in this cart cannot be rented",
	},
	German: {
		rentFrom:        "Mieten ab %s/Monat (zzgl. MwSt.)",
		cartRentFrom:    "Den ganzen Warenkorb ab %s/Monat mieten (zzgl. MwSt.)",
		payNowOnly:      "Nur zum Kauf, nicht zur Miete verfügbar",
		notAvailable:    "Nicht finanzierbar",
		cartNotRentable: "Einige Produkte im Warenkorb sind nicht mietbar",
	},
	Dutch: {
		rentFrom:        "Huren vanaf %s/maand (excl. btw)",
		cartRentFrom:    "Huur de hele winkelwagen vanaf %s/maand (excl. btw)",
		payNowOnly:      "Alleen te koop, niet te huur",
		notAvailable:    "Niet te financieren",
		cartNotRentable: "Sommige producten in deze winkelwagen zijn niet te huur",
	},
}

func (l Language) texts() texts {
	if t, ok := sentences[l]; ok {
		return t
	}
	return sentences[English]
}

// RentFrom says a product can be rented from a monthly net amount.
func (l Language) RentFrom(monthly Money) string {
	return strings.Replace(l.texts().rentFrom, "%s", l.Format(monthly.Currency, monthly.Net), 1)
}

// CartRentFrom says a whole cart can be rented from a monthly net amount.
func (l Language) CartRentFrom(monthly Money) string {
	return strings.Replace(l.texts().cartRentFrom, "%s", l.Format(monthly.Currency, monthly.Net), 1)
}

// PayNowOnly says a product can be bought but not rented.
func (l Language) PayNowOnly() string { return l.texts().payNowOnly }

// NotAvailable says a product cannot be financed at all.
func (l Language) NotAvailable() string { return l.texts().notAvailable }

// CartNotRentable says some products of a cart cannot be rented.
func (l Language) CartNotRentable() string { return l.texts().cartNotRentable }

// Summary is the one-line text for a product with the given rent terms:
// the lowest monthly rent, or that it is pay-now only, or not available.
func (l Language) Summary(supported bool, terms []Term) string {
	if !supported {
		return l.NotAvailable()
	}
	if low, ok := Lowest(terms); ok {
		return l.RentFrom(low.Monthly)
	}
	return l.PayNowOnly()
}

// symbols are the currency signs written instead of the ISO code.
var symbols = map[string]string{"EUR": "€", "GBP": "£", "USD": "$"}

// Format writes an amount of minor units with two decimals the way the
// language does: €1,234.56 (en), 1.234,56 € (de), € 1.234,56 (nl).
// Currencies without a sign are written with their ISO code.
func (l Language) Format(currency string, minor int64) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	units, cents := group(minor/100, l.thousands()), minor%100
	number := sign + units + l.decimal() + strconv.FormatInt(100+cents, 10)[1:]
	symbol, known := symbols[currency]
	switch {
	case !known:
		return currency + " " + number
	case l == German:
		return number + " " + symbol
	case l == Dutch:
		return symbol + " " + number
	default:
		return symbol + number
	}
}

func (l Language) thousands() string {
	if l == German || l == Dutch {
		return "."
	}
	return ","
}

func (l Language) decimal() string {
	if l == German || l == Dutch {
		return ","
	}
	return "."
}

// group writes a non-negative number with a thousands separator.
func group(n int64, sep string) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(r)
	}
	return b.String()
}
