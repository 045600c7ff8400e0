package catalog

import (
	"strings"
	"testing"
	"unicode"

	"github.com/google/uuid"
)

func TestBuildBindsEveryValue(t *testing.T) {
	seller := uuid.New()
	q := Query{SellerID: seller, Term: "50%_off\\", Any: true, Filters: []Filter{
		{"title", "contains", "'; DROP TABLE products; --"},
		{"price_net", ">=", " 1000 "},
		{"archived", "!=", "TRUE"},
		{"reference", "does not contain", "abc"},
	}}
	w, err := q.build()
	if err != nil {
		t.Fatal(err)
	}
	sql := strings.Join(w.clauses, " AND ")
	want := `p.seller_id = $1 AND p.is_active AND (NOT p.search_pending AND p.search_text LIKE $2 OR p.search_pending AND p.seller_id = $1 AND p.search_text LIKE $2) AND (strpos(lower(p.title), lower($3)) > 0 OR p.price_net >= $4 OR p.archived IS DISTINCT FROM $5 OR NOT EXISTS (SELECT 1 FROM product_references r WHERE r.product_id = p.id AND strpos(lower(r.reference), lower($6)) > 0))`
	if sql != want {
		t.Errorf("got  %s\nwant %s", sql, want)
	}
	args := []any{seller, `%50\%\_off\\%`, "'; DROP TABLE products; --", int64(1000), true, "abc"}
	if len(w.args) != len(args) {
		t.Fatalf("args %v", w.args)
	}
	for i := range args {
		if w.args[i] != args[i] {
			t.Errorf("arg %d: got %#v, want %#v", i+1, w.args[i], args[i])
		}
	}
}

func TestBuildRefusesWhatItCannotUse(t *testing.T) {
	cases := []struct {
		name   string
		filter Filter
		want   string
	}{
		{"unknown property", Filter{"colour", "=", "red"}, `filtering_options[0].property: unknown property "colour"`},
		{"column name as property", Filter{"p.title", "=", "x"}, "unknown property"},
		{"order on text", Filter{"title", "<", "m"}, `filtering_options[0].operation: "<" does not apply to the text property title; use =, !=, contains, does not contain`},
		{"contains on a number", Filter{"price_net", "contains", "1"}, "use <, >, =, !=, <=, >="},
		{"number not a number", Filter{"price_gross", ">", "12.50"}, `filtering_options[0].value: price_gross takes an integer`},
		{"boolean not a boolean", Filter{"is_supported", "=", "yes"}, `is_supported takes true or false, got "yes"`},
		{"long text", Filter{"title", "=", strings.Repeat("t", 256)}, "at most 255"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Query{Filters: []Filter{tc.filter}}.build()
			if _, ok := err.(*FilterError); !ok || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := (Query{Filters: make([]Filter, MaxFilters+1)}).build(); err == nil || !strings.Contains(err.Error(), "at most 20") {
		t.Errorf("too many filters: %v", err)
	}
	if _, err := (Query{Term: strings.Repeat("t", 256)}).build(); err == nil || !strings.Contains(err.Error(), "term") {
		t.Errorf("long term: %v", err)
	}
}

func TestMatchingReference(t *testing.T) {
	refs := []Reference{{"sku", "ABC-1"}, {"ean", "4006381333931"}}
	if got := MatchingReference(refs, "3339"); got != refs[1] {
		t.Errorf("got %+v", got)
	}
	if got := MatchingReference(refs, "monitor"); got != refs[0] {
		t.Errorf("no match: the first, got %+v", got)
	}
	if got := MatchingReference(refs, "abc"); got != refs[0] {
		t.Errorf("case-insensitive, got %+v", got)
	}
}

// searchable's ASCII shortcut gives what mapping every rune gives.
func TestSearchableMapsEveryRune(t *testing.T) {
	byRune := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return ' '
			}
			return unicode.ToLower(r)
		}, s)
	}
	for _, s := range []string{
		"", "abc", "ThinkPad X1 Carbon", "TAB\there\nLINE\r\x00\x1f\x7f", "Größe ÜBER Ärger", "MIXED ascii ÆØÅ then ASCII",
		"\u0085C1 control\u009f", "invalid \xff\xfe UTF-8 \xc3", "ΣΊΣΥΦΟΣ", "İstanbul", "emoji 🚀 ROCKET",
	} {
		if got, want := searchable(s), byRune(s); got != want {
			t.Errorf("searchable(%q) = %q, want %q", s, got, want)
		}
	}
	p := Product{ProductInput: ProductInput{Title: "Dell LATITUDE", Subtitle: "", Manufacturer: "Dell\tInc",
		References: []Reference{{Source: "sku", Reference: "AB-12"}, {Source: "ean", Reference: "Ünï"}}}, EAN: "4000", MPN: "X\n1"}
	if got, want := SearchText(p), strings.Join([]string{"dell latitude", "", "dell inc", "ab-12", "ünï", "4000", "x 1"}, "\n"); got != want {
		t.Errorf("SearchText = %q, want %q", got, want)
	}
}
