package catalog

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/db"
)

// Search limits.
const (
	// MaxFilters is the most conditions one search may carry.
	MaxFilters = 20
	// MaxTermLength bounds search terms and filter values.
	MaxTermLength = 255
)

// Query is a search of a seller's active products, one page at a time, in
// the order they were first imported.
type Query struct {
	SellerID uuid.UUID
	// Term is looked for, case-insensitively, in the search text.
	Term string
	// Any combines the filters with OR instead of AND.
	Any     bool
	Filters []Filter
	Limit   int64
	Offset  int64
}

// Filter is one condition on a product property.
type Filter struct {
	Property  string
	Operation string
	Value     string
}

// FilterError is a filter or term the search cannot use; its message names
// the field.
type FilterError struct{ msg string }

func (e *FilterError) Error() string { return e.msg }

func filterError(format string, args ...any) error {
	return &FilterError{msg: fmt.Sprintf(format, args...)}
}

// kind is the type of a filterable property.
type kind int

const (
	text kind = iota
	number
	boolean
)

// property maps a filterable property to a fixed SQL expression over
// products p (or, for reference pairs, product_references r).
type property struct {
	kind   kind
	column string
	// ofReferences is true for properties of the product's reference
	// pairs, which match when any pair does.
	ofReferences bool
}

// properties is the whitelist of filterable properties. Nothing a client
// sends is ever written into SQL: only these expressions and the
// operators below, with values bound as parameters.
var properties = map[string]property{
	"title":                   {kind: text, column: "p.title"},
	"subtitle":                {kind: text, column: "p.subtitle"},
	"description":             {kind: text, column: "p.description"},
	"manufacturer":            {kind: text, column: "p.manufacturer"},
	"ean":                     {kind: text, column: "p.ean"},
	"mpn":                     {kind: text, column: "p.mpn"},
	"pretty_id":               {kind: text, column: "p.pretty_id"},
	"origin":                  {kind: text, column: "p.origin"},
	"pricing_category":        {kind: text, column: "p.pricing_category"},
	"seller_product_type":     {kind: text, column: "coalesce(p.product_type, '')"},
	"support_status":          {kind: text, column: "p.support_status"},
	"currency":                {kind: text, column: "p.currency"},
	"reference":               {kind: text, column: "r.reference", ofReferences: true},
	"source":                  {kind: text, column: "r.source", ofReferences: true},
	"price_net":               {kind: number, column: "p.price_net"},
	"price_gross":             {kind: number, column: "p.price_gross"},
	"tax_rate":                {kind: number, column: "p.tax_rate"},
	"base_rental_price_net":   {kind: number, column: "p.base_rental_net"},
	"base_rental_price_gross": {kind: number, column: "p.base_rental_gross"},
	"archived":                {kind: boolean, column: "p.archived"},
	"is_supported":            {kind: boolean, column: "(p.support_status = 'supported')"},
}

// operations are the SQL of each operation per kind; %[1]s is the column,
// %[2]s the bound value. Negative operations on reference pairs are
// written as the positive condition and negated over all pairs.
var operations = map[kind]map[string]string{
	text: {
		"=":                "lower(%[1]s) = lower(%[2]s)",
		"!=":               "lower(%[1]s) = lower(%[2]s)",
		"contains":         "strpos(lower(%[1]s), lower(%[2]s)) > 0",
		"does not contain": "strpos(lower(%[1]s), lower(%[2]s)) > 0",
	},
	number: {
		"<": "%[1]s < %[2]s", ">": "%[1]s > %[2]s", "=": "%[1]s = %[2]s",
		"!=": "%[1]s IS DISTINCT FROM %[2]s", "<=": "%[1]s <= %[2]s", ">=": "%[1]s >= %[2]s",
	},
	boolean: {
		"=": "%[1]s = %[2]s", "!=": "%[1]s IS DISTINCT FROM %[2]s",
	},
}

// negated text operations are their positive form under NOT.
var negated = map[string]bool{"!=": true, "does not contain": true}

var kindNames = map[kind]string{text: "text", number: "integer", boolean: "boolean"}

// where is a WHERE clause under construction with its bound arguments.
type where struct {
	clauses []string
	args    []any
}

func (w *where) bind(v any) string {
	w.args = append(w.args, v)
	return "$" + strconv.Itoa(len(w.args))
}

// build turns a query into a WHERE clause, refusing unknown properties,
// operations a property does not take and values of the wrong type.
func (q Query) build() (*where, error) {
	if n := utf8.RuneCountInString(q.Term); n > MaxTermLength {
		return nil, filterError("query parameter term must be at most %d characters, got %d", MaxTermLength, n)
	}
	if len(q.Filters) > MaxFilters {
		return nil, filterError("filtering_options has %d conditions, at most %d are allowed", len(q.Filters), MaxFilters)
	}
	w := &where{}
	seller := w.bind(q.SellerID)
	w.clauses = append(w.clauses, "p.seller_id = "+seller, "p.is_active")
	if q.Term != "" {
		// Said twice so that the planner can use both partial indexes: the
		// trigram index for the products in it, the index of pending ones
		// for those a CSV import stored and SearchIndexer has not let in.
		like := "p.search_text LIKE " + w.bind("%"+db.EscapeLike(searchable(q.Term))+"%")
		w.clauses = append(w.clauses, "(NOT p.search_pending AND "+like+" OR p.search_pending AND p.seller_id = "+seller+" AND "+like+")")
	}
	var conds []string
	for i, f := range q.Filters {
		c, err := w.condition(i, f)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	if len(conds) > 0 {
		join := " AND "
		if q.Any {
			join = " OR "
		}
		w.clauses = append(w.clauses, "("+strings.Join(conds, join)+")")
	}
	return w, nil
}

func (w *where) condition(i int, f Filter) (string, error) {
	field := fmt.Sprintf("filtering_options[%d]", i)
	prop, ok := properties[f.Property]
	if !ok {
		return "", filterError("%s.property: unknown property %q; filterable properties are %s", field, f.Property, strings.Join(propertyNames(), ", "))
	}
	sqlFormat, ok := operations[prop.kind][f.Operation]
	if !ok {
		return "", filterError("%s.operation: %q does not apply to the %s property %s; use %s", field, f.Operation, kindNames[prop.kind], f.Property, strings.Join(operationNames(prop.kind), ", "))
	}
	value, err := parseValue(field, f, prop.kind)
	if err != nil {
		return "", err
	}
	cond := fmt.Sprintf(sqlFormat, prop.column, w.bind(value))
	if prop.ofReferences {
		cond = "EXISTS (SELECT 1 FROM product_references r WHERE r.product_id = p.id AND " + cond + ")"
	}
	if prop.kind == text && negated[f.Operation] {
		cond = "NOT " + cond
	}
	return cond, nil
}

func parseValue(field string, f Filter, k kind) (any, error) {
	switch k {
	case number:
		n, err := strconv.ParseInt(strings.TrimSpace(f.Value), 10, 64)
		if err != nil {
			return nil, filterError("%s.value: %s takes an integer (minor units, tax rate × 100), got %q", field, f.Property, f.Value)
		}
		return n, nil
	case boolean:
		switch strings.ToLower(strings.TrimSpace(f.Value)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, filterError("%s.value: %s takes true or false, got %q", field, f.Property, f.Value)
	}
	if n := utf8.RuneCountInString(f.Value); n > MaxTermLength {
		return nil, filterError("%s.value must be at most %d characters, got %d", field, MaxTermLength, n)
	}
	return f.Value, nil
}

func propertyNames() []string {
	names := make([]string, 0, len(properties))
	for n := range properties {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// operationOrder is the order operations are listed in messages.
var operationOrder = []string{"<", ">", "=", "!=", "<=", ">=", "contains", "does not contain"}

func operationNames(k kind) []string {
	var names []string
	for _, op := range operationOrder {
		if _, ok := operations[k][op]; ok {
			names = append(names, op)
		}
	}
	return names
}

// Page is one page of a search and the number of products that match.
type Page struct {
	Items []Item
	Total int64
}

// Search runs a query. A FilterError says which part of it cannot be used.
func Search(ctx context.Context, store *db.Store, q Query) (Page, error) {
	w, err := q.build()
	if err != nil {
		return Page{}, err
	}
	cond := strings.Join(w.clauses, " AND ")
	// The statements run unprepared, so PostgreSQL plans each with its
	// term: a generic plan cannot tell a rare term (trigram index) from a
	// common one, and picks plans that scan the whole catalog.
	args := slices.Concat([]any{pgx.QueryExecModeCacheDescribe}, w.args, []any{q.Limit, q.Offset})
	// One scan yields the page and the number of matches: counting in a
	// second query would scan every match twice.
	rows, err := store.Pool.Query(ctx, fmt.Sprintf("SELECT p.id, count(*) OVER () FROM products p WHERE %s ORDER BY p.id LIMIT $%d OFFSET $%d",
		cond, len(args)-2, len(args)-1), args...)
	if err != nil {
		return Page{}, err
	}
	var ids []uuid.UUID
	var total int64
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id, &total); err != nil {
			rows.Close()
			return Page{}, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Page{}, err
	}
	// A page past the end has no row to carry the count.
	if len(ids) == 0 && q.Offset > 0 {
		if err := store.Pool.QueryRow(ctx, "SELECT count(*) FROM products p WHERE "+cond, args[:len(args)-2]...).Scan(&total); err != nil {
			return Page{}, err
		}
	}
	items, err := ItemsByIDs(ctx, store.Queries, q.SellerID, ids)
	if err != nil {
		return Page{}, err
	}
	return Page{Items: items, Total: total}, nil
}

// MatchingReference is the product's first reference that contains the
// term (case-insensitively), else its first reference.
func MatchingReference(refs []Reference, term string) Reference {
	if len(refs) == 0 {
		return Reference{}
	}
	lower := strings.ToLower(term)
	for _, r := range refs {
		if term != "" && strings.Contains(strings.ToLower(r.Reference), lower) {
			return r
		}
	}
	return refs[0]
}
