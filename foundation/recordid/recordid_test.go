package recordid

import (
	"testing"
)

func TestParse(t *testing.T) {
	const lower = "0190f5c2-7a51-7cc4-9d0e-5f3c2b1a4e77"
	for _, s := range []string{lower, "0190F5C2-7A51-7CC4-9D0E-5F3C2B1A4E77", "0190f5C2-7a51-7Cc4-9d0E-5f3c2B1a4e77"} {
		id, err := Parse(s)
		if err != nil || id.String() != lower {
			t.Errorf("Parse(%q) = %v, %v; want %s", s, id, err, lower)
		}
		if got := Canonical(s); got != lower {
			t.Errorf("Canonical(%q) = %q, want %q", s, got, lower)
		}
	}
	for _, s := range []string{
		"", "0190f5c27a517cc49d0e5f3c2b1a4e77", "{0190f5c2-7a51-7cc4-9d0e-5f3c2b1a4e77}",
		"urn:uuid:0190f5c2-7a51-7cc4-9d0e-5f3c2b1a4e77", "0190f5c2-7a51-7cc4-9d0e-5f3c2b1a4e7g",
		"0190f5c2+7a51-7cc4-9d0e-5f3c2b1a4e77", " 0190f5c2-7a51-7cc4-9d0e-5f3c2b1a4e7", "not-an-id",
	} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) accepted a value that is not an id", s)
		}
		if got := Canonical(s); got != s {
			t.Errorf("Canonical(%q) = %q, want it unchanged", s, got)
		}
	}
}
