package invoices

import (
	"strconv"
	"strings"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// twoDecimals writes hundredths with two decimals, as CII amounts and
// percentages take them: 11900 is "119.00", 1900 (19 %) "19.00".
func twoDecimals(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return sign + strconv.FormatInt(v/100, 10) + "." + pad2(v%100)
}

// percentText is a rate in basis points as a percentage without trailing
// zeros: 1900 is "19", 750 "7.5".
func percentText(rate int64) string {
	return strings.TrimSuffix(strings.TrimRight(twoDecimals(rate), "0"), ".")
}

// pad2 writes 0 to 99 with two digits.
func pad2(v int64) string {
	if v < 10 {
		return "0" + strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v, 10)
}

// style is how a language writes numbers, amounts and dates.
type style struct {
	decimal, thousands string
	// euroFirst writes "€ 1.234,56" (nl) or "€1,234.56" (en) rather than
	// "1.234,56 €" (de).
	euroFirst, euroSpace bool
	// percentSpace writes "19 %" rather than "19%".
	percentSpace bool
	date         func(civil.Date) string
}

// styles are the languages' ways of writing.
var styles = map[pricing.Language]style{
	pricing.English: {decimal: ".", thousands: ",", euroFirst: true, date: func(d civil.Date) string {
		return strconv.Itoa(d.Day()) + " " + d.Month().String() + " " + strconv.Itoa(d.Year())
	}},
	pricing.German: {decimal: ",", thousands: ".", euroSpace: true, percentSpace: true, date: func(d civil.Date) string {
		return pad2(int64(d.Day())) + "." + pad2(int64(d.Month())) + "." + strconv.Itoa(d.Year())
	}},
	pricing.Dutch: {decimal: ",", thousands: ".", euroFirst: true, euroSpace: true, date: func(d civil.Date) string {
		return pad2(int64(d.Day())) + "-" + pad2(int64(d.Month())) + "-" + strconv.Itoa(d.Year())
	}},
}

// number writes hundredths with the language's separators: 123456 is
// "1.234,56" in German.
func (s style) number(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	whole := strconv.FormatInt(v/100, 10)
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(s.thousands)
		}
		b.WriteRune(c)
	}
	return sign + b.String() + s.decimal + pad2(v%100)
}

// money writes an amount in euro cents: "1.234,56 €", "€ 1.234,56",
// "€1,234.56".
func (s style) money(cents int64) string {
	space := ""
	if s.euroSpace {
		space = " "
	}
	if s.euroFirst {
		return "€" + space + s.number(cents)
	}
	return s.number(cents) + space + "€"
}

// percent writes a rate in basis points: "19 %", "7,5 %", "19%".
func (s style) percent(rate int64) string {
	text := strings.Replace(percentText(rate), ".", s.decimal, 1)
	if s.percentSpace {
		return text + " %"
	}
	return text + "%"
}
