package guard

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/mail"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// Limits Tenure states in seller.yaml where the published contract sets
// none. oasdiff counts a maxLength or maxItems added to a published
// request field as a breaking change, so they are vendor extensions the
// guard reads; a limit the contract states as maxLength or maxItems is
// honoured the same way.
const (
	// extMaxLength bounds a string, in characters.
	extMaxLength = "x-tenure-max-length"
	// extMaxItems bounds an array.
	extMaxItems = "x-tenure-max-items"
	// extMaxItemsError names the 413 error an array beyond its limit is
	// refused with, where the contract answers too much work with 413
	// (TooManyProducts) rather than as malformed input.
	extMaxItemsError = "x-tenure-max-items-error"
	// extMaxProperties bounds the keys of a map (additionalProperties).
	extMaxProperties = "x-tenure-max-properties"
	// extMaxKeyLength bounds each key of a map, in characters.
	extMaxKeyLength = "x-tenure-max-key-length"
	// extFollowedURL marks a URL that a customer or Tenure will follow:
	// package weburl's rule decides it, applied by the operation, which
	// answers a refusal with the status its contract lists for the field
	// (an offer's 422 OfferError among them), so the guard leaves it alone.
	extFollowedURL = "x-tenure-followed-url"
)

// followedURL reports whether a schema is a URL someone will follow.
func followedURL(s *openapi3.Schema) bool {
	followed, _ := s.Extensions[extFollowedURL].(bool)
	return followed
}

// extLimit reads a limit extension of a schema.
func extLimit(s *openapi3.Schema, name string) (int, bool) {
	switch v := s.Extensions[name].(type) {
	case float64:
		return int(v), true
	case int:
		return v, true
	case json.Number:
		n, err := v.Int64()
		return int(n), err == nil
	}
	return 0, false
}

// maxLength is the length limit a string schema states.
func maxLength(s *openapi3.Schema) (int, bool) { return statedLimit(s, extMaxLength, s.MaxLength) }

// maxItems is the item limit an array schema states.
func maxItems(s *openapi3.Schema) (int, bool) { return statedLimit(s, extMaxItems, s.MaxItems) }

// statedLimit is a schema's limit: its extension, else the standard
// keyword (which the published contract uses in a few places).
func statedLimit(s *openapi3.Schema, ext string, keyword *uint64) (int, bool) {
	if n, ok := extLimit(s, ext); ok {
		return n, true
	}
	if keyword != nil {
		return int(*keyword), true
	}
	return 0, false
}

// checkLimits enforces the limits the contract states on a decoded body
// and the range of its integers (which must fit the int64 or int32 the
// handlers read them into). Values of the wrong type are left to the
// schema validation that follows.
func checkLimits(s *openapi3.Schema, v any, path []string) error {
	if s == nil {
		return nil
	}
	for _, sub := range s.AllOf {
		if err := checkLimits(sub.Value, v, path); err != nil {
			return err
		}
	}
	switch v := v.(type) {
	case string:
		if err := checkFormat(bodyField(path), s, v); err != nil {
			return err
		}
		return checkLength(bodyField(path), s, v)
	case json.Number:
		return checkNumber(bodyField(path), s, string(v))
	case []any:
		if max, ok := maxItems(s); ok && len(v) > max {
			if name, ok := s.Extensions[extMaxItemsError].(string); ok {
				return apierror.New(http.StatusRequestEntityTooLarge, name, "%s may list at most %d items, got %d", bodyField(path), max, len(v))
			}
			return apierror.BadRequest("%s must list at most %d items, got %d", bodyField(path), max, len(v))
		}
		if s.Items == nil {
			return nil
		}
		for i, item := range v {
			if err := checkLimits(s.Items.Value, item, append(slices.Clip(path), strconv.Itoa(i))); err != nil {
				return err
			}
		}
	case map[string]any:
		return checkObjectLimits(s, v, path)
	}
	return nil
}

func checkObjectLimits(s *openapi3.Schema, obj map[string]any, path []string) error {
	extra := s.AdditionalProperties.Schema
	if extra != nil {
		if max, ok := extLimit(s, extMaxProperties); ok && len(obj) > max {
			return apierror.BadRequest("%s may hold at most %d keys, got %d", bodyField(path), max, len(obj))
		}
	}
	// Sorted, so the field a refusal names does not depend on map order.
	for _, key := range slices.Sorted(maps.Keys(obj)) {
		field := append(slices.Clip(path), key)
		if p, ok := s.Properties[key]; ok {
			if err := checkLimits(p.Value, obj[key], field); err != nil {
				return err
			}
			continue
		}
		if extra == nil {
			continue
		}
		if max, ok := extLimit(s, extMaxKeyLength); ok && utf8.RuneCountInString(key) > max {
			return apierror.BadRequest("%s may only have keys of at most %d characters", bodyField(path), max)
		}
		if err := checkLimits(extra.Value, obj[key], field); err != nil {
			return err
		}
	}
	return nil
}

// bodyField names a field of the body in messages.
func bodyField(path []string) string {
	if len(path) == 0 {
		return "the request body"
	}
	return "field " + fieldPath(path)
}

// checkLength refuses a string longer than its schema's limit.
func checkLength(where string, s *openapi3.Schema, v string) error {
	max, ok := maxLength(s)
	if !ok {
		return nil
	}
	if n := utf8.RuneCountInString(v); n > max {
		return apierror.BadRequest("%s must be at most %d characters, got %d", where, max, n)
	}
	return nil
}

// checkNumber refuses a number its schema's type cannot hold: an integer
// with a fraction, an exponent or beyond its format's range, or a number
// beyond a float64's.
func checkNumber(where string, s *openapi3.Schema, literal string) error {
	switch {
	case s.Type.Is(openapi3.TypeInteger):
		bits := 64
		if s.Format == "int32" {
			bits = 32
		}
		_, err := strconv.ParseInt(literal, 10, bits)
		if errors.Is(err, strconv.ErrRange) {
			return apierror.BadRequest("%s must be an integer between %d and %d", where, int64(-1)<<(bits-1), int64(1)<<(bits-1)-1)
		}
		if err != nil {
			return apierror.BadRequest("%s must be an integer", where)
		}
	case s.Type.Is(openapi3.TypeNumber):
		f, err := strconv.ParseFloat(literal, 64)
		if err != nil || math.IsInf(f, 0) {
			return apierror.BadRequest("%s must be a number between %g and %g", where, -math.MaxFloat64, math.MaxFloat64)
		}
	}
	return nil
}

// errNotAbsolute is a URI without a scheme.
var errNotAbsolute = errors.New("not an absolute URI")

// checkParamText refuses a parameter value PostgreSQL cannot store.
func checkParamText(where, v string) error {
	if !utf8.ValidString(v) {
		return apierror.BadRequest("%s must be valid UTF-8 text (percent-encode UTF-8 bytes, e.g. %%C3%%BC for ü)", where)
	}
	if strings.ContainsRune(v, 0) {
		return apierror.BadRequest("%s must not contain NUL characters", where)
	}
	return nil
}

// checkParamValue checks a parameter's value against the limits and the
// number range its schema states; its other rules are the schema
// validator's.
func checkParamValue(where string, s *openapi3.Schema, v string) error {
	if err := checkParamText(where, v); err != nil {
		return err
	}
	if s == nil {
		return nil
	}
	if s.Type.Is(openapi3.TypeInteger) || s.Type.Is(openapi3.TypeNumber) {
		return checkNumber(where, s, v)
	}
	if err := checkFormat(where, s, v); err != nil {
		return err
	}
	return checkLength(where, s, v)
}

// checkFormat refuses a UUID (package recordid's form), date-time or
// e-mail address the generated binding could not read into its uuid.UUID,
// time.Time or Email (which parses the address), so the refusal names the
// field, and a URI that is not absolute (empty stands for none, as
// integrations send it) unless it is a followed URL.
func checkFormat(where string, s *openapi3.Schema, v string) error {
	var err error
	switch s.Format {
	case "uri":
		if u, parseErr := url.Parse(v); v != "" && !followedURL(s) && (parseErr != nil || !u.IsAbs()) {
			err = errNotAbsolute
		}
	case "uuid":
		_, err = recordid.Parse(v)
	case "date-time":
		_, err = time.Parse(time.RFC3339Nano, v)
	case "email":
		_, err = mail.ParseAddress(v)
	}
	if err != nil {
		return apierror.BadRequest("%s must be %s", where, formatWords(s.Format))
	}
	return nil
}

// unlimitedFields lists the request fields and parameters of an operation
// for which the contract states no limit: every string needs a length
// limit (or an enum), every array an item limit, every map a key count
// and key length limit. The guard can only enforce what is stated, so a
// contract that forgets one is not served.
func unlimitedFields(op *openapi3.Operation) []string {
	var missing []string
	for _, p := range op.Parameters {
		if p.Value == nil || p.Value.Schema == nil {
			continue
		}
		where := fmt.Sprintf("%s parameter %s", p.Value.In, p.Value.Name)
		missing = append(missing, unlimited(where, p.Value.Schema.Value, map[*openapi3.Schema]bool{})...)
	}
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		for _, media := range rb.Value.Content {
			if media.Schema != nil {
				missing = append(missing, unlimited("request body", media.Schema.Value, map[*openapi3.Schema]bool{})...)
			}
		}
	}
	return missing
}

func unlimited(where string, s *openapi3.Schema, seen map[*openapi3.Schema]bool) []string {
	if s == nil || seen[s] {
		return nil
	}
	seen[s] = true
	defer delete(seen, s)
	var missing []string
	for _, sub := range s.AllOf {
		missing = append(missing, unlimited(where, sub.Value, seen)...)
	}
	if len(s.OneOf) > 0 || len(s.AnyOf) > 0 {
		missing = append(missing, where+" (oneOf/anyOf: state the limits on plain schemas)")
	}
	switch {
	case s.Type.Is(openapi3.TypeString):
		if _, ok := maxLength(s); !ok && len(s.Enum) == 0 {
			missing = append(missing, where)
		}
	case s.Type.Is(openapi3.TypeArray):
		if _, ok := maxItems(s); !ok {
			missing = append(missing, where)
		}
		if s.Items != nil {
			missing = append(missing, unlimited(where+"[]", s.Items.Value, seen)...)
		}
	case s.Type.Is(openapi3.TypeObject):
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			missing = append(missing, unlimited(where+"."+name, s.Properties[name].Value, seen)...)
		}
		if extra := s.AdditionalProperties.Schema; extra != nil {
			_, keys := extLimit(s, extMaxProperties)
			_, keyLength := extLimit(s, extMaxKeyLength)
			if !keys || !keyLength {
				missing = append(missing, where+" (keys)")
			}
			missing = append(missing, unlimited(where+".{key}", extra.Value, seen)...)
		}
	}
	return missing
}
