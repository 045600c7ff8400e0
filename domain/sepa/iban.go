package sepa

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"unicode"
)

// ErrInvalidIBAN wraps every refusal of an IBAN. Its messages name the
// problem (country, length, check digits), never the IBAN, so they can be
// logged and answered.
var ErrInvalidIBAN = errors.New("invalid IBAN")

// IBAN is a validated International Bank Account Number (ISO 13616) of a
// SEPA scheme country.
//
// It cannot leak by accident: its String, every fmt verb (%v, %+v, %#v,
// %s, %q, %x …), its slog value and its text and JSON forms are the masked
// IBAN ("DE89 **** **** **** **** 00"), and it keeps the number behind a
// pointer, so printing a struct that holds an IBAN in an unexported field
// shows an address, not the digits. Only Unmasked gives the number, for
// the collection file and for sealing it at rest. There is no way back
// from the text form: decoding JSON into an IBAN fails, so a masked IBAN
// is never mistaken for a real one, and it refuses to be a database value
// (carry a sealed IBAN through workflows and storage, not this type).
//
// The zero IBAN is no IBAN (IsZero). Compare IBANs with Equal: == compares
// the pointers.
type IBAN struct {
	number *string
}

// ParseIBAN reads an IBAN as a person types it: spaces anywhere, any case.
// It accepts it when its country is in the SEPA schemes, its length and
// national structure are that country's, and its check digits hold
// (ISO 7064 MOD 97-10).
func ParseIBAN(s string) (IBAN, error) {
	number := strings.ToUpper(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s))
	if number == "" {
		return IBAN{}, fmt.Errorf("%w: it is empty", ErrInvalidIBAN)
	}
	if !isAlnum(number) {
		return IBAN{}, fmt.Errorf("%w: an IBAN has only letters and digits", ErrInvalidIBAN)
	}
	if len(number) < 5 || !isLetters(number[:2]) || !isDigits(number[2:4]) {
		return IBAN{}, fmt.Errorf("%w: an IBAN starts with a country code and two check digits", ErrInvalidIBAN)
	}
	country := number[:2]
	format, ok := sepaCountries[country]
	if !ok {
		return IBAN{}, fmt.Errorf("%w: country %s is not in the SEPA schemes", ErrInvalidIBAN, country)
	}
	if len(number) != format.length {
		return IBAN{}, fmt.Errorf("%w: an IBAN of %s has %d characters, this one %d", ErrInvalidIBAN, country, format.length, len(number))
	}
	if !matchesBBAN(number[4:], format.bban) {
		return IBAN{}, fmt.Errorf("%w: the account part does not have the structure of %s (%s)", ErrInvalidIBAN, country, format.bban)
	}
	if mod97(number[4:]+number[:4]) != 1 {
		return IBAN{}, fmt.Errorf("%w: the check digits do not match (mistyped?)", ErrInvalidIBAN)
	}
	return IBAN{number: &number}, nil
}

// Country is the IBAN's country code.
func (i IBAN) Country() string {
	if i.IsZero() {
		return ""
	}
	return (*i.number)[:2]
}

// IsZero reports whether i is no IBAN.
func (i IBAN) IsZero() bool { return i.number == nil }

// Equal reports whether two IBANs are the same number.
func (i IBAN) Equal(o IBAN) bool {
	return i.IsZero() == o.IsZero() && (i.IsZero() || *i.number == *o.number)
}

// Unmasked is the whole IBAN in its electronic form (no spaces): for the
// collection file and for sealing at rest, nowhere else.
func (i IBAN) Unmasked() string {
	if i.IsZero() {
		return ""
	}
	return *i.number
}

// Masked is the IBAN as people may see it: the country, the check digits
// and the last two characters, every other character a '*', in the printed
// groups of four ("DE89 **** **** **** **** 00", "BE68 **** **** **34").
// The zero IBAN masks to "".
func (i IBAN) Masked() string {
	if i.IsZero() {
		return ""
	}
	n := *i.number
	var b strings.Builder
	for k := range len(n) {
		if k > 0 && k%4 == 0 {
			b.WriteByte(' ')
		}
		if k < 4 || k >= len(n)-2 {
			b.WriteByte(n[k])
		} else {
			b.WriteByte('*')
		}
	}
	return b.String()
}

// String is the masked IBAN.
func (i IBAN) String() string { return i.Masked() }

// Format prints the masked IBAN for every verb and flag (%q quotes it).
func (i IBAN) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		_, _ = f.Write([]byte(strconv.Quote(i.Masked())))
		return
	}
	_, _ = f.Write([]byte(i.Masked()))
}

// LogValue is the masked IBAN in structured logs.
func (i IBAN) LogValue() slog.Value { return slog.StringValue(i.Masked()) }

// MarshalText is the masked IBAN, and so its JSON and XML.
func (i IBAN) MarshalText() ([]byte, error) { return []byte(i.Masked()), nil }

// errNotAValue refuses to store an IBAN as a database value.
var errNotAValue = errors.New("an IBAN is not stored as a value: seal its Unmasked number with the key ring and store the sealed bytes")

// Value refuses to be a database value (database/sql, pgx): without it,
// pgx would store the masked text a Stringer gives, losing the number
// without a word.
func (i IBAN) Value() (driver.Value, error) { return nil, errNotAValue }

// isLetters reports whether s holds only upper-case letters.
func isLetters(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// isDigits reports whether s holds only digits.
func isDigits(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// matchesBBAN reports whether a national part has the IBAN Registry's
// structure, e.g. "8n10n": runs of n digits, a letters, c letters or
// digits. The lengths of the runs add up to the national part's.
func matchesBBAN(bban, structure string) bool {
	pos := 0
	for structure != "" {
		end := strings.IndexAny(structure, "nac")
		count, _ := strconv.Atoi(structure[:end])
		kind := structure[end]
		structure = structure[end+1:]
		if pos+count > len(bban) {
			return false
		}
		run := bban[pos : pos+count]
		switch kind {
		case 'n':
			if !isDigits(run) {
				return false
			}
		case 'a':
			if !isLetters(run) {
				return false
			}
		}
		pos += count
	}
	return pos == len(bban)
}
