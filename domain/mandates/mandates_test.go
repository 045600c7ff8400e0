package mandates

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/foundation/keyring"
)

// Check names every bad field of a payment method, never repeating the
// IBAN, and reads a good one: spaces and case ignored, the holder's spaces
// collapsed.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name   string
		in     PaymentMethod
		fields string
	}{
		{"good", PaymentMethod{IBAN: "de89 3704 0044 0532 0130 00", AccountHolder: " Kunde   GmbH ", MandateAccepted: true}, ""},
		{"Austria", PaymentMethod{IBAN: "AT611904300234573201", AccountHolder: "K", MandateAccepted: true}, ""},
		{"not SEPA", PaymentMethod{IBAN: "US64SVBKUS6S3300958879", AccountHolder: "K", MandateAccepted: true}, "iban:invalid_format"},
		{"too long", PaymentMethod{IBAN: "DE893704004405320130001", AccountHolder: "K", MandateAccepted: true}, "iban:invalid_format"},
		{"check digits", PaymentMethod{IBAN: "DE88370400440532013000", AccountHolder: "K", MandateAccepted: true}, "iban:invalid_format"},
		{"letters in a German account", PaymentMethod{IBAN: "DE89370400440532013A00", AccountHolder: "K", MandateAccepted: true}, "iban:invalid_format"},
		{"empty", PaymentMethod{IBAN: "  ", AccountHolder: "", MandateAccepted: false}, "iban:required account_holder:required mandate_accepted:required"},
		{"a long holder", PaymentMethod{IBAN: "DE89370400440532013000", AccountHolder: strings.Repeat("ä", 71), MandateAccepted: true}, "account_holder:too_long"},
		{"not agreed", PaymentMethod{IBAN: "DE89370400440532013000", AccountHolder: "K"}, "mandate_accepted:required"},
	} {
		debtor, problems := Check(c.in)
		var got []string
		for _, p := range problems {
			got = append(got, p.Field+":"+p.Code)
			if strings.Contains(p.Message, "0532013") || strings.Contains(p.Message, "3300958879") {
				t.Errorf("%s: the message repeats the IBAN: %s", c.name, p.Message)
			}
		}
		if strings.Join(got, " ") != c.fields {
			t.Errorf("%s: problems %v, want %s", c.name, got, c.fields)
		}
		if c.fields == "" && (debtor.IBAN.IsZero() || debtor.AccountHolder != strings.Join(strings.Fields(c.in.AccountHolder), " ")) {
			t.Errorf("%s: read as %v %q", c.name, debtor.IBAN, debtor.AccountHolder)
		}
	}
}

// The masked IBAN keeps the country, the check digits and the last two
// characters, in groups of four.
func TestMasking(t *testing.T) {
	for iban, want := range map[string]string{
		"DE89370400440532013000":          "DE89 **** **** **** **** 00",
		"NL91ABNA0417164300":              "NL91 **** **** **** 00",
		"BE68539007547034":                "BE68 **** **** **34",
		"FR1420041010050500013M02606":     "FR14 **** **** **** **** **** *06",
		"MT84MALT011000012345MTLCAST001S": "MT84 **** **** **** **** **** **** *1S",
	} {
		debtor, problems := Check(PaymentMethod{IBAN: iban, AccountHolder: "K", MandateAccepted: true})
		if len(problems) > 0 {
			t.Errorf("%s: %v", want, problems)
			continue
		}
		if got := debtor.IBAN.Masked(); got != want {
			t.Errorf("masked %q, want %q", got, want)
		}
		if got := fmt.Sprintf("%v %+v", debtor, debtor.IBAN); strings.Contains(got, iban[4:12]) {
			t.Errorf("printing the debtor shows the IBAN: %s", got)
		}
	}
}

// ring is a key ring of the given "id:base64" keys.
func ring(t *testing.T, specs ...string) *keyring.Ring {
	t.Helper()
	r, err := keyring.Parse(specs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// spec is a fresh key.
func spec(t *testing.T, id string) string {
	t.Helper()
	s, err := keyring.GenerateSpec(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A sealed IBAN holds no digits of the number, opens with the ring that
// sealed it and, after a rotation, with a ring holding the old key second;
// it does not open without that key, nor moved to another mandate.
func TestSealing(t *testing.T) {
	iban, err := sepa.ParseIBAN("DE89370400440532013000")
	if err != nil {
		t.Fatal(err)
	}
	old, next := spec(t, "2026-10"), spec(t, "2026-11")
	id := uuid.Must(uuid.NewV7())
	m := Mandate{ID: id, sealed: seal(ring(t, old), id, iban)}
	if bytes.Contains(m.sealed, []byte("0532013000")) {
		t.Fatal("the sealed IBAN holds the number")
	}
	for name, r := range map[string]*keyring.Ring{"the sealing ring": ring(t, old), "the rotated ring": ring(t, next, old)} {
		if got, err := Open(r, m); err != nil || got != iban.Unmasked() {
			t.Errorf("%s opens %q, %v", name, got, err)
		}
	}
	if _, err := Open(ring(t, next), m); !errors.Is(err, keyring.ErrUnknownKey) {
		t.Errorf("without the old key: %v", err)
	}
	moved := m
	moved.ID = uuid.Must(uuid.NewV7())
	if _, err := Open(ring(t, old), moved); !errors.Is(err, keyring.ErrOpen) {
		t.Errorf("moved to another mandate: %v", err)
	}
	resealed := Mandate{ID: id, sealed: seal(ring(t, next, old), id, iban)}
	if r, err := ring(t, next).KeyID(resealed.sealed, id[:]); err != nil || r != "2026-11" {
		t.Errorf("a new mandate is sealed with %q (%v), want the current key", r, err)
	}
}
