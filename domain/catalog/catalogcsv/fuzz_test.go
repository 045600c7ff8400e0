// The fuzz targets run their seed corpora (testdata/fuzz/<Target>/) with
// every `go test`. To fuzz one, with one worker so the machine stays usable:
//
//	go test ./domain/catalog/catalogcsv -run '^$' -fuzz '^FuzzParseAmount$' -fuzztime 5m -parallel 1
//	go test ./domain/catalog/catalogcsv -run '^$' -fuzz '^FuzzParseRow$' -fuzztime 5m -parallel 1
//
// A failing input lands in testdata/fuzz/<Target>/; commit it with the fix
// so it stays a regression test.

package catalogcsv_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
)

func FuzzParseAmount(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		v, err := catalogcsv.ParseAmount(s)
		if err != nil {
			return
		}
		if v < 0 || v > catalog.MaxAmount {
			t.Fatalf("ParseAmount(%q) = %d, outside [0, %d]", s, v, int64(catalog.MaxAmount))
		}
		again := fmt.Sprintf("%d.%02d", v/100, v%100)
		if w, err := catalogcsv.ParseAmount(again); err != nil || w != v {
			t.Fatalf("ParseAmount(%q) = %d, but ParseAmount(%q) = %d, %v", s, v, again, w, err)
		}
	})
}

func FuzzParseRow(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r := csv.NewReader(bytes.NewReader(data))
		r.FieldsPerRecord = -1
		r.ReuseRecord = true
		record, err := r.Read()
		if err != nil {
			return
		}
		h, err := catalogcsv.ParseHeader(record)
		if err != nil {
			return
		}
		for {
			record, err := r.Read()
			if errors.Is(err, io.EOF) {
				return
			}
			if _, malformed := errors.AsType[*csv.ParseError](err); malformed {
				// The reader has moved past the bad line, as an import does.
				continue
			}
			if err != nil {
				t.Fatalf("reading: %v", err)
			}
			_ = h.Reference(record)
			row, prob := h.Parse(record, "EUR")
			if prob != nil {
				continue
			}
			checkRow(t, row)
		}
	})
}

// checkRow asserts what every accepted row guarantees, and that the
// catalog accepts it unless a reference lacks the characters it requires
// (a rule Parse leaves to catalog.Validate).
func checkRow(t *testing.T, row catalogcsv.Row) {
	t.Helper()
	p := row.Product
	if len(p.References) == 0 {
		t.Fatalf("no references: %+v", p)
	}
	for _, m := range []*catalog.Money{&p.Price, p.BaseRentalPrice} {
		if m != nil && (m.Net <= 0 || m.Gross < m.Net || m.Gross > catalog.MaxAmount) {
			t.Fatalf("bad amount %+v", *m)
		}
	}
	if n := utf8.RuneCountInString(p.Description); n > catalog.MaxDescriptionLength {
		t.Fatalf("description of %d characters", n)
	}
	if _, rej := catalog.Validate(p, p.Price.Currency); rej != nil &&
		(rej.Code != catalog.CodeInvalidReference || !strings.Contains(rej.Description, "must contain a letter")) {
		t.Fatalf("catalog rejects an accepted row: %+v\n%+v", *rej, p)
	}
}
