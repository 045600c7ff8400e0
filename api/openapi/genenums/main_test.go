package main

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// stale is a contract whose marked lists are out of date: one list
// before its marker, one after it, one missing, among comments, quoted
// and folded text, and a nested schema with an enum of its own.
const stale = `# A contract. enum: in a comment stays.
components:
  schemas:
    Phone:
      type: object
      description: 'A phone, with ''quotes'' and
        a folded line.'
      properties:
        type:
          type: string
          enum:
          - fax
          - mobile
          x-tenure-enum: [phone-types]
          description: Kind.
        kind:
          type: string
          x-tenure-enum: [empty, phone-types]
          enum:
          - pager
          description: Kind or nothing.
        nested:
          type: object
          properties:
            mode:
              type: string
              enum:
              - keep
              - these
        language:
          type: string
          x-tenure-enum: [languages]
          description: Inserted.
    After:
      type: string
      enum:
      - untouched
`

const want = `# A contract. enum: in a comment stays.
components:
  schemas:
    Phone:
      type: object
      description: 'A phone, with ''quotes'' and
        a folded line.'
      properties:
        type:
          type: string
          enum:
          - mobile
          - landline
          x-tenure-enum: [phone-types]
          description: Kind.
        kind:
          type: string
          x-tenure-enum: [empty, phone-types]
          enum:
          - ''
          - mobile
          - landline
          description: Kind or nothing.
        nested:
          type: object
          properties:
            mode:
              type: string
              enum:
              - keep
              - these
        language:
          type: string
          x-tenure-enum: [languages]
          enum:
          - en
          - de
          - nl
          description: Inserted.
    After:
      type: string
      enum:
      - untouched
`

// The rewrite replaces the marked lists, inserts a missing one, and leaves
// every other byte alone; rewriting its own output changes nothing.
func TestRewriteChangesOnlyTheMarkedLists(t *testing.T) {
	got, err := rewrite([]byte(stale))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("rewrite:\n%s\nwant:\n%s", got, want)
	}
	again, err := rewrite(got)
	if err != nil || string(again) != string(got) {
		t.Errorf("a second rewrite changed the output (%v):\n%s", err, again)
	}
	if _, err := rewrite([]byte("a:\n  x-tenure-enum: [colours]\n")); err == nil || !strings.Contains(err.Error(), `"colours"`) {
		t.Errorf("an unknown table: %v", err)
	}
}

// Values YAML would read as something else are quoted.
func TestScalar(t *testing.T) {
	for v, want := range map[string]string{
		"de_gmbh": "de_gmbh", "offer.pending_review": "offer.pending_review", "": "''", "yes": "'yes'",
		"No": "'No'", "null": "'null'", "12": "'12'", "it's": "'it''s'", ">": "'>'", "a b": "'a b'",
	} {
		if got := scalar(v); got != want {
			t.Errorf("scalar(%q) = %s, want %s", v, got, want)
		}
	}
}

// The committed contracts are up to date, so rewriting them changes no
// byte, and each marked schema lists exactly its tables' values, as a
// parser of OpenAPI reads them.
func TestContractsListTheTables(t *testing.T) {
	marked := 0
	for _, path := range []string{"../seller.yaml", "../customer.yaml"} {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out, err := rewrite(src)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(src) {
			t.Errorf("%s has stale enumerations: run make generate", path)
		}
		doc, err := openapi3.NewLoader().LoadFromData(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := doc.Validate(context.Background()); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		visit := func(s *openapi3.Schema) {
			names, ok := s.Extensions["x-tenure-enum"].([]any)
			if !ok {
				return
			}
			marked++
			var want []string
			for _, n := range names {
				want = append(want, tables[n.(string)]()...)
			}
			var got []string
			for _, v := range s.Enum {
				got = append(got, v.(string))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: a schema marked %v lists %v", path, names, got)
			}
		}
		seen := map[*openapi3.Schema]bool{}
		for _, s := range doc.Components.Schemas {
			walk(s.Value, visit, seen)
		}
		for _, item := range doc.Paths.Map() {
			for _, op := range item.Operations() {
				for _, p := range op.Parameters {
					walk(p.Value.Schema.Value, visit, seen)
				}
			}
		}
	}
	if marked < 13 {
		t.Errorf("%d marked schemas, want the thirteen or more of seller.yaml and customer.yaml", marked)
	}
}

func walk(s *openapi3.Schema, visit func(*openapi3.Schema), seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	visit(s)
	for _, p := range s.Properties {
		walk(p.Value, visit, seen)
	}
	if s.Items != nil {
		walk(s.Items.Value, visit, seen)
	}
}
