// Command genenums writes the enumerations of Tenure's contracts from the
// Go tables the server checks values against, so that a contract lists
// exactly the values the server accepts:
//
//	go run ./api/openapi/genenums api/openapi/seller.yaml api/openapi/customer.yaml
//
// A schema names its tables in the extension x-tenure-enum, a flow
// sequence such as [empty, legal-forms]; the command replaces the schema's
// enum list (adding one when it has none) by the tables' values, in order,
// one "- value" line each, and leaves every other byte of the file as it
// is: comments, quoting and line breaks included. With -o DIR it writes
// the files into DIR instead of over themselves; make generate runs it
// before oapi-codegen, and make check-generated compares its output with
// the committed contracts.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/endcustomer"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/domain/webhook"
)

// tables are the lists a contract may name, each the one the server
// checks the field against.
var tables = map[string]func() []string{
	// empty is the empty string, where a field may be sent empty for
	// "not given" (the hosted checkout sends its untouched fields so).
	"empty": func() []string { return []string{""} },
	// legal-forms are the codes of checkout.LegalForms, which the
	// Customer-Facing API accepts as end_customer.type and the hosted
	// checkout offers (web/checkout/assets/legal-forms.js).
	"legal-forms": func() []string {
		codes := make([]string, len(endcustomer.LegalForms))
		for i, f := range endcustomer.LegalForms {
			codes[i] = f.Code
		}
		return codes
	},
	"customer-languages":       func() []string { return endcustomer.Languages },
	"phone-types":              func() []string { return endcustomer.PhoneTypes },
	"languages":                func() []string { return config.Languages },
	"document-languages":       func() []string { return sellers.Languages },
	"product-types":            func() []string { return config.ProductTypes },
	"subscribable-event-types": func() []string { return webhook.SubscribableTypes },
	"event-types":              func() []string { return webhook.EventTypes },
	"payout-statuses": func() []string {
		statuses := make([]string, len(payouts.Statuses))
		for i, s := range payouts.Statuses {
			statuses[i] = string(s)
		}
		return statuses
	},
	"invoice-statuses": func() []string {
		statuses := make([]string, len(invoicing.Statuses))
		for i, s := range invoicing.Statuses {
			statuses[i] = string(s)
		}
		return statuses
	},
	"contract-statuses": func() []string {
		statuses := make([]string, len(contracts.Statuses))
		for i, s := range contracts.Statuses {
			statuses[i] = string(s)
		}
		return statuses
	},
}

func main() {
	dir := flag.String("o", "", "directory to write the contracts into; empty rewrites them in place")
	flag.Parse()
	log.SetFlags(0)
	for _, path := range flag.Args() {
		src, err := os.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		out, err := rewrite(src)
		if err != nil {
			log.Fatalf("%s: %v", path, err)
		}
		target := path
		if *dir != "" {
			target = filepath.Join(*dir, filepath.Base(path))
		}
		if err := os.WriteFile(target, out, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// marker is the extension naming a schema's tables.
var marker = regexp.MustCompile(`^( *)x-tenure-enum: *\[([^\]]*)\] *$`)

// rewrite replaces the enum list of every marked schema of a contract.
func rewrite(src []byte) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	for i := 0; i < len(lines); i++ {
		m := marker.FindStringSubmatch(strings.TrimRight(lines[i], "\n"))
		if m == nil {
			continue
		}
		values, err := tableValues(m[2])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		indent := m[1]
		items := make([]string, len(values))
		for j, v := range values {
			items[j] = indent + "- " + scalar(v) + "\n"
		}
		start, end := mappingBounds(lines, i, len(indent))
		enum := -1
		for j := start; j < end; j++ {
			if strings.TrimRight(lines[j], "\n") == indent+"enum:" {
				enum = j
			}
		}
		if enum < 0 {
			lines = splice(lines, i+1, i+1, append([]string{indent + "enum:\n"}, items...))
			continue
		}
		last := enum + 1
		for last < len(lines) && strings.HasPrefix(lines[last], indent+"- ") {
			last++
		}
		lines = splice(lines, enum+1, last, items)
		if enum < i {
			i += len(items) - (last - enum - 1)
		}
	}
	return []byte(strings.Join(lines, "")), nil
}

// tableValues are the values of the tables a marker names, in order.
func tableValues(names string) ([]string, error) {
	var values []string
	for name := range strings.SplitSeq(names, ",") {
		table, ok := tables[strings.TrimSpace(name)]
		if !ok {
			return nil, fmt.Errorf("x-tenure-enum names %q, which is no table of genenums", strings.TrimSpace(name))
		}
		values = append(values, table()...)
	}
	if len(values) == 0 {
		return nil, fmt.Errorf("x-tenure-enum names no table")
	}
	return values, nil
}

// mappingBounds are the first and one past the last line of the mapping
// whose keys are indented by indent and which holds line at: the lines
// around it that are blank or indented at least as much.
func mappingBounds(lines []string, at, indent int) (int, int) {
	inside := func(line string) bool {
		trimmed := strings.TrimLeft(line, " ")
		return strings.TrimSpace(line) == "" || len(line)-len(trimmed) >= indent
	}
	start, end := at, at+1
	for start > 0 && inside(lines[start-1]) {
		start--
	}
	for end < len(lines) && inside(lines[end]) {
		end++
	}
	return start, end
}

func splice(lines []string, from, to int, with []string) []string {
	return append(append(append([]string{}, lines[:from]...), with...), lines[to:]...)
}

// plain are scalars YAML reads as the same string without quotes.
var plain = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

// scalar writes v as a YAML scalar: plain where YAML reads it back as the
// same string, else single-quoted.
func scalar(v string) string {
	switch strings.ToLower(v) {
	case "y", "n", "yes", "no", "true", "false", "on", "off", "null":
	default:
		if plain.MatchString(v) {
			return v
		}
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}
