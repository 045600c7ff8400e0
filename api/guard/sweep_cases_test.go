package guard_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/tenurehq/tenure/api/guard"
)

// sweepCase is one hostile request the sweep sends: a mutation of an
// operation's example request, generated from the contract.
type sweepCase struct {
	name string
	// as is the caller: "a" (the owner of the fixtures), "b" (another
	// seller) or a raw Authorization header value.
	as     string
	path   string
	query  url.Values
	header map[string]string
	// body is sent verbatim; nil sends none.
	body        []byte
	contentType string
}

// sweepOp is an operation of the contract with its example request.
type sweepOp struct {
	method, path string
	op           *openapi3.Operation
	// pathParams are the example values of the path parameters.
	pathParams map[string]string
	// body is the example body (nil when the operation takes none).
	body       any
	bodySchema *openapi3.Schema
	// ownsIDs says whether the example body names one of the fixtures'
	// records.
	ownsIDs bool
}

// exampleIDs are the fixtures' ids a generated request uses: for path
// parameters by the path up to the parameter, for body fields by their
// dotted name (scenario_input.ids).
type exampleIDs struct {
	byPath  map[string]string
	byField map[string]string
}

// value is the fixture value of a body field: by its dotted name, or by
// a "*.suffix" key matching the end of it.
func (ids exampleIDs) value(field string) (string, bool) {
	if v, ok := ids.byField[field]; ok {
		return v, true
	}
	for key, v := range ids.byField {
		if suffix, ok := strings.CutPrefix(key, "*"); ok && strings.HasSuffix("."+field, suffix) {
			return v, true
		}
	}
	return "", false
}

// newSweepOp builds an operation's example request.
func newSweepOp(method, path string, op *openapi3.Operation, ids exampleIDs) (sweepOp, error) {
	s := sweepOp{method: method, path: path, op: op, pathParams: map[string]string{}}
	for _, p := range op.Parameters {
		v := p.Value
		if v.In != openapi3.ParameterInPath {
			continue
		}
		if schema := v.Schema.Value; len(schema.Enum) > 0 {
			s.pathParams[v.Name] = fmt.Sprint(schema.Enum[0])
			continue
		}
		prefix := path[:strings.Index(path, "{"+v.Name+"}")+len(v.Name)+2]
		id, ok := ids.byPath[prefix]
		if !ok {
			return s, fmt.Errorf("the sweep has no fixture for %s: add one to sweepFixtures", prefix)
		}
		s.pathParams[v.Name] = id
	}
	if rb := op.RequestBody; rb != nil {
		media := rb.Value.Content.Get("application/json")
		s.bodySchema = media.Schema.Value
		s.body = example(s.bodySchema, "", ids)
		raw := string(mustJSON(s.body))
		for _, id := range ids.byPath {
			s.ownsIDs = s.ownsIDs || strings.Contains(raw, `"`+id+`"`)
		}
	}
	return s, nil
}

// example is a value of a schema that the schema admits; field is its
// dotted name in the body.
func example(s *openapi3.Schema, field string, ids exampleIDs) any {
	switch {
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Type.Is(openapi3.TypeString):
		if v, ok := ids.value(field); ok {
			return v
		}
		switch s.Format {
		case "uuid":
			return "0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f"
		case "date-time":
			return time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
		case "date":
			return time.Now().AddDate(0, 1, 0).UTC().Format(time.DateOnly)
		case "email":
			return "buyer@example.com"
		case "uri":
			return "https://shop.example/page"
		}
		return "sweep-1"
	case s.Type.Is(openapi3.TypeInteger), s.Type.Is(openapi3.TypeNumber):
		if s.Min != nil && *s.Min > 1 {
			return int64(*s.Min)
		}
		return 1
	case s.Type.Is(openapi3.TypeBoolean):
		return true
	case s.Type.Is(openapi3.TypeArray):
		return []any{example(s.Items.Value, field, ids)}
	}
	obj := map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(s.Properties)) {
		obj[key] = example(s.Properties[key].Value, strings.TrimPrefix(field+"."+key, "."), ids)
	}
	if extra := s.AdditionalProperties.Schema; extra != nil {
		obj["key"] = example(extra.Value, field+".key", ids)
	}
	return obj
}

// cases lists the sweep's requests for an operation: bad tokens, another
// seller's and unknown ids, malformed, truncated, deep and oversized
// bodies, and for every parameter and body field a wrong type, NUL, invalid
// UTF-8, an over-long value and numbers out of range.
func (s sweepOp) cases(bodyLimit int) []sweepCase {
	var out []sweepCase
	add := func(c sweepCase) {
		if c.as == "" {
			c.as = "a"
		}
		if c.path == "" {
			c.path = s.concretePath(nil)
		}
		if c.body == nil && c.contentType == "" && s.body != nil {
			c.body = mustJSON(s.body)
		}
		if c.contentType == "" && c.body != nil {
			c.contentType = "application/json"
		}
		out = append(out, c)
	}
	for _, as := range []string{"", "forged", "expired", "other-audience"} {
		add(sweepCase{name: "token " + as, as: "token:" + as})
	}
	if len(s.pathParams) > 0 || s.ownsIDs {
		add(sweepCase{name: "another seller's resources", as: "b"})
	}
	for name := range s.pathParams {
		if s.paramSchema(name).Enum != nil {
			continue
		}
		add(sweepCase{name: "unknown " + name, path: s.concretePath(map[string]string{name: "01a20a52-0b34-7a93-8929-71a1d8002968"})})
	}
	for _, p := range s.op.Parameters {
		out = append(out, s.paramCases(p.Value)...)
	}
	if s.body == nil {
		return out
	}
	valid := mustJSON(s.body)
	for _, c := range []struct {
		name        string
		body        []byte
		contentType string
	}{
		{"malformed JSON", []byte(`{"`), ""},
		{"JSON with an unquoted word", []byte(`{"a": Nope}`), ""},
		{"truncated JSON", valid[:len(valid)/2], ""},
		{"trailing data", append(slices.Clip(valid), "{}"...), ""},
		{"deep nesting", []byte(strings.Repeat("[", 20000) + strings.Repeat("]", 20000)), ""},
		{"deep nesting in a field", []byte(`{"x":` + strings.Repeat(`{"x":`, 5000) + "1" + strings.Repeat("}", 5001)), ""},
		{"oversized body", []byte(`{"x":"` + strings.Repeat("x", bodyLimit) + `"}`), ""},
		{"not JSON content", valid, "text/plain"},
		{"a JSON string", []byte(`"body"`), ""},
		{"a repeated field", []byte(`{"a":1,"a":2}`), ""},
	} {
		add(sweepCase{name: c.name, body: c.body, contentType: c.contentType})
	}
	for _, m := range mutations(s.bodySchema, s.body, nil) {
		add(sweepCase{name: "body " + m.name, body: m.apply(s.body)})
	}
	return out
}

func (s sweepOp) paramSchema(name string) *openapi3.Schema {
	for _, p := range s.op.Parameters {
		if p.Value.Name == name {
			return p.Value.Schema.Value
		}
	}
	return nil
}

// concretePath fills the path template, with overrides percent-encoded
// as given (they may hold escapes).
func (s sweepOp) concretePath(override map[string]string) string {
	path := s.path
	for name, v := range s.pathParams {
		if o, ok := override[name]; ok {
			v = o
		} else {
			v = url.PathEscape(v)
		}
		path = strings.ReplaceAll(path, "{"+name+"}", v)
	}
	return path
}

// paramCases are the bad values of one parameter.
func (s sweepOp) paramCases(p *openapi3.Parameter) []sweepCase {
	schema := p.Schema.Value
	var values []struct{ name, raw string }
	bad := func(name, raw string) { values = append(values, struct{ name, raw string }{name, raw}) }
	switch {
	case schema.Type.Is(openapi3.TypeInteger):
		bad("not an integer", "two")
		bad("1e400", "1e400")
		bad("2^63", "9223372036854775808")
		bad("a fraction", "1.5")
		if schema.Min != nil && *schema.Min >= 0 {
			bad("-1", "-1")
		}
	case schema.Type.Is(openapi3.TypeBoolean):
		bad("not a boolean", "maybe")
	default:
		if len(schema.Enum) > 0 || schema.Format != "" {
			bad("not a valid value", "zz-not-valid")
		}
		bad("NUL", "a%00b")
		bad("invalid UTF-8", "a%ffb")
		if n, ok := guard.MaxLength(schema); ok {
			bad("over-long", strings.Repeat("x", n+1))
		}
	}
	var out []sweepCase
	for _, v := range values {
		c := sweepCase{name: fmt.Sprintf("%s parameter %s %s", p.In, p.Name, v.name), as: "a"}
		switch p.In {
		case openapi3.ParameterInPath:
			c.path = s.concretePath(map[string]string{p.Name: v.raw})
		case openapi3.ParameterInQuery:
			raw, _ := url.QueryUnescape(v.raw)
			c.query = url.Values{p.Name: {raw}}
		case openapi3.ParameterInHeader:
			raw, _ := url.QueryUnescape(v.raw)
			if strings.ContainsRune(raw, 0) {
				continue // no HTTP client sends it; the guard refuses control characters anyway
			}
			c.header = map[string]string{p.Name: raw}
		}
		c.path = orDefault(c.path, s.concretePath(nil))
		if s.body != nil {
			c.body, c.contentType = mustJSON(s.body), "application/json"
		}
		out = append(out, c)
	}
	return out
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// mutation replaces the value at a path of the example body.
type mutation struct {
	name  string
	path  []any // string keys and int indexes
	value any
	// drop removes the field instead.
	drop bool
}

func (m mutation) apply(body any) []byte {
	root := deepCopy(body)
	if len(m.path) == 0 {
		return mustJSON(m.value)
	}
	parent := root
	for _, step := range m.path[:len(m.path)-1] {
		parent = child(parent, step)
	}
	switch last := m.path[len(m.path)-1].(type) {
	case string:
		if m.drop {
			delete(parent.(map[string]any), last)
		} else {
			parent.(map[string]any)[last] = m.value
		}
	case int:
		parent.([]any)[last] = m.value
	}
	return mustJSON(root)
}

func child(v any, step any) any {
	if key, ok := step.(string); ok {
		return v.(map[string]any)[key]
	}
	return v.([]any)[step.(int)]
}

// mutations lists the bad values of every field of a body.
func mutations(s *openapi3.Schema, v any, path []any) []mutation {
	at := func(name string, value any) mutation {
		return mutation{name: fieldName(path) + " " + name, path: slices.Clone(path), value: value}
	}
	var out []mutation
	switch v := v.(type) {
	case string:
		out = append(out, at("of the wrong type", json.RawMessage("123")), at("with NUL", "a\x00b"),
			at("with invalid UTF-8", json.RawMessage("\"a\xffb\"")))
		if s.Format != "" && s.Format != "regexp" {
			out = append(out, at("not a valid "+s.Format, "zz not valid"))
		}
		if n, ok := guard.MaxLength(s); ok {
			out = append(out, at("over-long", strings.Repeat("x", n+1)), at("over-long in characters", strings.Repeat("ü", n+1)))
		}
	case int, int64:
		out = append(out, at("of the wrong type", "one"), at("1e400", json.RawMessage("1e400")),
			at("2^63", json.RawMessage("9223372036854775808")), at("a fraction", json.RawMessage("1.5")))
		if s.Min != nil && *s.Min >= 0 {
			out = append(out, at("-1", json.RawMessage("-1")))
		}
	case bool:
		out = append(out, at("of the wrong type", "yes"))
	case []any:
		out = append(out, at("of the wrong type", map[string]any{}))
		if n, ok := guard.MaxItems(s); ok {
			out = append(out, at("with too many items", slices.Repeat(v[:1], n+1)))
		}
		for i, item := range v {
			out = append(out, mutations(s.Items.Value, item, append(slices.Clip(path), i))...)
		}
	case map[string]any:
		if len(path) > 0 {
			out = append(out, at("of the wrong type", "an object"))
		}
		for _, req := range s.Required {
			out = append(out, mutation{name: fieldName(append(slices.Clip(path), req)) + " missing", path: append(slices.Clip(path), req), drop: true})
		}
		for _, key := range slices.Sorted(maps.Keys(v)) {
			p, ok := s.Properties[key]
			if !ok {
				p = s.AdditionalProperties.Schema
			}
			out = append(out, mutations(p.Value, v[key], append(slices.Clip(path), key))...)
		}
		if s.AdditionalProperties.Schema != nil {
			out = append(out, mapMutations(s, v, path)...)
		}
	}
	return out
}

// mapMutations are the bad keys of a map field.
func mapMutations(s *openapi3.Schema, v map[string]any, path []any) []mutation {
	with := func(name string, extra map[string]any) mutation {
		m := maps.Clone(v)
		maps.Copy(m, extra)
		return mutation{name: fieldName(path) + " " + name, path: slices.Clone(path), value: m}
	}
	sample := v["key"]
	out := []mutation{with("with a NUL in a key", map[string]any{"a\x00b": sample})}
	if n, ok := guard.ExtLimit(s, "x-tenure-max-key-length"); ok {
		out = append(out, with("with an over-long key", map[string]any{strings.Repeat("k", n+1): sample}))
	}
	if n, ok := guard.ExtLimit(s, "x-tenure-max-properties"); ok {
		many := map[string]any{}
		for i := range n + 1 {
			many[fmt.Sprintf("k%d", i)] = sample
		}
		out = append(out, with("with too many keys", many))
	}
	return out
}

func fieldName(path []any) string {
	if len(path) == 0 {
		return "the body"
	}
	var b strings.Builder
	for _, p := range path {
		if i, ok := p.(int); ok {
			fmt.Fprintf(&b, "[%d]", i)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p.(string))
	}
	return b.String()
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, e := range v {
			s[i] = deepCopy(e)
		}
		return s
	}
	return v
}

func mustJSON(v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return raw
}
