package csvimport

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestReportedReferenceIsStorableText(t *testing.T) {
	for in, want := range map[string]string{
		"SKU-1":     "SKU-1",
		"a\x00b":    "a\uFFFDb",
		"a\xffb":    "a\uFFFDb",
		"\xc3":      "\uFFFD",
		"äöü-1":     "äöü-1",
		"":          "",
		"x\x00\xfe": "x\uFFFD\uFFFD",
	} {
		if got := reportedReference(in); got != want {
			t.Errorf("reportedReference(%q) = %q, want %q", in, got, want)
		}
	}
	long := reportedReference(strings.Repeat("ü", 10_000))
	if n := utf8.RuneCountInString(long); n != maxReportedReference || !strings.HasSuffix(long, "…") {
		t.Errorf("a long cell is cut to %d characters ending with …, got %d", maxReportedReference, n)
	}
}
