package catalogcsv

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tenurehq/tenure/domain/catalog"
)

// ParseAmount reads a price cell in whole currency units and returns minor
// units (cents, 2 decimals).
//
// The decimal separator is a point or a comma, followed by one or two
// digits. Thousands separators are the other character, or the same one
// when it appears more than once without decimals; their groups have
// exactly three digits: 1234, 1234.5, 1234,50, 1.234,56, 1,234.56,
// 1.234.567 and 1,234,567 are accepted. A single separator followed by
// exactly three digits (1,234 or 1.234) could mean either, so it is
// rejected as ambiguous. Surrounding spaces are ignored; spaces or
// apostrophes inside the number (1 234,56), signs and currency symbols are
// rejected, and so is anything above catalog.MaxAmount.
func ParseAmount(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("the amount is empty")
	}
	for i := range len(s) {
		switch c := s[i]; {
		case isDigit(c) || c == '.' || c == ',':
		case i == 0 && (c == '-' || c == '+'):
			return 0, fmt.Errorf("%q must not have a sign", s)
		default:
			return 0, fmt.Errorf("%q is not an amount: write digits with a decimal point or comma, such as 1299.00 or 1.299,00", s)
		}
	}

	integer, decimals, thousands, hasDecimals := s, "", byte(0), false
	lastPoint, lastComma := strings.LastIndexByte(s, '.'), strings.LastIndexByte(s, ',')
	switch {
	case lastPoint >= 0 && lastComma >= 0:
		// Both kinds: the last separator is the decimal one.
		d := max(lastPoint, lastComma)
		integer, decimals, hasDecimals = s[:d], s[d+1:], true
		thousands = s[min(lastPoint, lastComma)]
		if strings.IndexByte(integer, s[d]) >= 0 {
			return 0, fmt.Errorf("%q mixes its separators: write it as 1,234.56 or 1.234,56", s)
		}
	case lastPoint >= 0 || lastComma >= 0:
		sep := s[max(lastPoint, lastComma)]
		if strings.Count(s, string(sep)) > 1 {
			thousands = sep
			break
		}
		i := strings.IndexByte(s, sep)
		integer, decimals, hasDecimals = s[:i], s[i+1:], true
		if len(decimals) == 3 && integer != "" {
			return 0, fmt.Errorf("%q is ambiguous: its %q may separate thousands or decimals; write thousands with the decimals (1,234.00 or 1.234,00) or without a separator (1234)", s, sep)
		}
	}

	switch {
	case hasDecimals && decimals == "":
		return 0, fmt.Errorf("%q has no digits after its decimal separator", s)
	case len(decimals) > 2:
		return 0, fmt.Errorf("%q has more than 2 decimals", s)
	case integer == "":
		return 0, fmt.Errorf("%q needs a digit before its decimal separator, such as 0.50", s)
	case thousands != 0 && !validGroups(integer, thousands):
		return 0, fmt.Errorf("%q has misplaced thousands separators: they separate groups of three digits, as in 1,234,567.89", s)
	}

	const maxUnits = catalog.MaxAmount / 100
	var units int64
	for i := range len(integer) {
		if c := integer[i]; c != thousands {
			// Checking each digit keeps units far from overflowing.
			if units = units*10 + int64(c-'0'); units > maxUnits {
				return 0, tooLarge(s)
			}
		}
	}
	var cents int64
	for i := range 2 {
		cents *= 10
		if i < len(decimals) {
			cents += int64(decimals[i] - '0')
		}
	}
	if amount := units*100 + cents; amount <= catalog.MaxAmount {
		return amount, nil
	}
	return 0, tooLarge(s)
}

func tooLarge(s string) error {
	return fmt.Errorf("%q is too large: at most %s", s, formatAmount(catalog.MaxAmount))
}

// validGroups reports whether integer, digits split by thousands, has a
// leading group of one to three digits and then groups of exactly three.
func validGroups(integer string, thousands byte) bool {
	i := 0
	for g := range strings.SplitSeq(integer, string(thousands)) {
		if g == "" || len(g) > 3 || i > 0 && len(g) != 3 {
			return false
		}
		i++
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// formatAmount writes minor units back as whole units with two decimals.
func formatAmount(minor int64) string { return fmt.Sprintf("%d.%02d", minor/100, minor%100) }

// ParseBool reads true/false, 1/0, yes/no, y/n, case-insensitive,
// surrounding spaces ignored.
func ParseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "y":
		return true, nil
	case "false", "0", "no", "n":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a yes or no: write true or false (1/0, yes/no and y/n work too)", s)
}
