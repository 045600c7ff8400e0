package sepa

import (
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestParseMandateReferenceKeepsToTheSEPARules(t *testing.T) {
	for _, ok := range []string{
		"TNR0190F3A27B1C7DEF8A123456789ABCDE",
		"a",
		"Mandat 2026/11-0001",
		"az AZ 09 / - ? : ( ) . , ' +",
		strings.Repeat("M", 35),
	} {
		if got, err := ParseMandateReference(ok); err != nil || string(got) != ok {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "a mandate reference is empty"},
		{strings.Repeat("M", 36), "has 36 characters, at most 35"},
		{"Müller-1", `contains 'ü', outside the SEPA character set`},
		{"M_1", `contains '_'`},
		{"M&1", `contains '&'`},
		{"M#1", `contains '#'`},
		{"M\n1", `contains '\n'`},
		{"/M1", "may not start or end with '/'"},
		{"M1/", "may not start or end with '/'"},
		{"M//1", `nor contain "//"`},
	} {
		if _, err := ParseMandateReference(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestMandateReferenceForIsAValidUniqueReference(t *testing.T) {
	id := uuid.MustParse("0190f3a2-7b1c-7def-8a12-3456789abcde")
	ref := MandateReferenceFor(id)
	if ref != "TNR0190F3A27B1C7DEF8A123456789ABCDE" {
		t.Errorf("reference %s", ref)
	}
	seen := map[MandateReference]bool{}
	for range 1000 {
		r := MandateReferenceFor(uuid.Must(uuid.NewV7()))
		if _, err := ParseMandateReference(string(r)); err != nil || len(r) != 35 {
			t.Fatalf("%s: %v", r, err)
		}
		if seen[MandateReference(strings.ToUpper(string(r)))] {
			t.Fatalf("%s made twice", r)
		}
		seen[r] = true
	}
}

func TestCollectionIDNamesTheInstallmentAndTheAttempt(t *testing.T) {
	id := uuid.MustParse("0190f3a2-7b1c-7def-8a12-3456789abcde")
	for _, tc := range []struct {
		attempt int
		want    EndToEndID
	}{
		{1, "0190F3A27B1C7DEF8A123456789ABCDE-1"},
		{2, "0190F3A27B1C7DEF8A123456789ABCDE-2"},
		{99, "0190F3A27B1C7DEF8A123456789ABCDE-99"},
	} {
		got, err := CollectionID(id, tc.attempt)
		if err != nil || got != tc.want {
			t.Errorf("attempt %d: %s, %v", tc.attempt, got, err)
			continue
		}
		if _, err := ParseEndToEndID(string(got)); err != nil {
			t.Errorf("%s is no valid end-to-end id: %v", got, err)
		}
		back, attempt, err := ParseCollectionID(got)
		if err != nil || back != id || attempt != tc.attempt {
			t.Errorf("%s reads back as %s %d, %v", got, back, attempt, err)
		}
	}
	for _, attempt := range []int{0, -1, 100} {
		if got, err := CollectionID(id, attempt); err == nil {
			t.Errorf("attempt %d gave %s", attempt, got)
		}
	}
	for _, in := range []EndToEndID{
		"", "INV-2026-0001", "0190F3A27B1C7DEF8A123456789ABCDE", "0190F3A27B1C7DEF8A123456789ABCDE-0",
		"0190F3A27B1C7DEF8A123456789ABCDE-01", "0190F3A27B1C7DEF8A123456789ABCDE-100", "0190f3a27b1c7def8a123456789abcde-1",
		"0190F3A27B1C7DEF8A123456789ABCDX-1", "0190F3A27B1C7DEF8A123456789ABCDE-+1",
	} {
		if got, attempt, err := ParseCollectionID(in); err == nil {
			t.Errorf("%q read as %s %d", in, got, attempt)
		}
	}
}

func TestParseSchemeKnowsCoreAndB2B(t *testing.T) {
	for in, want := range map[string]Scheme{"CORE": Core, "core": Core, " B2B ": B2B, "b2b": B2B} {
		if got, err := ParseScheme(in); err != nil || got != want {
			t.Errorf("%q: %s, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "COR1", "B2C", "SEPA"} {
		if got, err := ParseScheme(in); err == nil {
			t.Errorf("%q read as %s", in, got)
		}
	}
}
