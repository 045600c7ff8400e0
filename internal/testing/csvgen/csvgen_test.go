package csvgen_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/catalog/catalogcsv"
	"github.com/tenurehq/tenure/internal/testing/csvgen"
)

func generate(t *testing.T, rows int, seed int64) ([]byte, csvgen.Stats) {
	t.Helper()
	var buf bytes.Buffer
	stats, err := csvgen.Generate(&buf, rows, seed)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rows != rows || stats.Bytes != int64(buf.Len()) {
		t.Fatalf("stats %+v for %d rows of %d bytes", stats, rows, buf.Len())
	}
	return buf.Bytes(), stats
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, _ := generate(t, 2000, 7)
	b, _ := generate(t, 2000, 7)
	if !bytes.Equal(a, b) {
		t.Error("the same seed wrote different files")
	}
	if c, _ := generate(t, 2000, 8); bytes.Equal(a, c) {
		t.Error("another seed wrote the same file")
	}
}

// TestGenerateInvalidRows reads a generated file as an import does and
// checks that exactly the rows counted invalid are rejected, either by
// catalogcsv or as a duplicate reference of an earlier row, that every
// other row passes catalog.Validate, and that the optional columns vary.
func TestGenerateInvalidRows(t *testing.T) {
	for _, seed := range []int64{1, 2, -3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { checkInvalidRows(t, seed) })
	}
}

func checkInvalidRows(t *testing.T, seed int64) {
	const rows = 20_000
	data, stats := generate(t, rows, seed)
	if perRow := stats.Bytes / rows; perRow < 200 || perRow > 300 {
		t.Errorf("%d bytes per row, want 200 to 300", perRow)
	}
	if stats.Invalid < rows/200 || stats.Invalid > rows/50 {
		t.Errorf("%d invalid rows of %d, want about 1 %%", stats.Invalid, rows)
	}

	r := csv.NewReader(bytes.NewReader(data))
	r.ReuseRecord = true
	record, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	h, err := catalogcsv.ParseHeader(record)
	if err != nil {
		t.Fatal(err)
	}
	if h.Width() != 21 {
		t.Errorf("the header has %d columns, want all 21", h.Width())
	}
	seen := map[catalog.Reference]bool{}
	rejected := map[string]int{} // by column
	var duplicates, read int
	var present [32]int // rows per optional field
	for {
		record, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		read++
		row, prob := h.Parse(record, "EUR")
		if prob != nil {
			rejected[prob.Column]++
			continue
		}
		if dup := anySeen(seen, row.Product.References); dup {
			duplicates++
			continue
		}
		for _, ref := range row.Product.References {
			seen[ref] = true
		}
		if _, rej := catalog.Validate(row.Product, "EUR"); rej != nil {
			t.Fatalf("catalog rejects row %d: %+v", read, *rej)
		}
		for bit := range present {
			if row.Present&(1<<bit) != 0 {
				present[bit]++
			}
		}
	}
	if read != rows {
		t.Fatalf("read %d rows, want %d", read, rows)
	}
	total := duplicates
	for _, n := range rejected {
		total += n
	}
	if total != stats.Invalid {
		t.Errorf("%d rows rejected (%v) and %d duplicates, but %d counted invalid", total-duplicates, rejected, duplicates, stats.Invalid)
	}
	// Each way of being invalid shows up.
	for _, column := range []string{"price_gross", "price_net", "is_active", "reference", "image_url"} {
		if rejected[column] == 0 {
			t.Errorf("no row rejected for %s: %v", column, rejected)
		}
	}
	if duplicates == 0 {
		t.Error("no duplicate references")
	}
	valid := rows - stats.Invalid
	for bit := range 12 {
		if n := present[bit]; n == 0 || n == valid {
			t.Errorf("optional field %b is filled in %d of %d valid rows", 1<<bit, n, valid)
		}
	}
}

func anySeen(seen map[catalog.Reference]bool, refs []catalog.Reference) bool {
	for _, ref := range refs {
		if seen[ref] {
			return true
		}
	}
	return false
}
