package guard

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/tenurehq/tenure/foundation/optional"
)

// describeRequestError says what is wrong with a parameter, in the API's
// words: the validator's own reasons quote Go types, schemas and values.
func describeRequestError(err error) string {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) || re.Parameter == nil {
		return "the request does not match the API contract"
	}
	p := re.Parameter
	where := fmt.Sprintf("%s parameter %s", p.In, p.Name)
	if p.In == openapi3.ParameterInHeader {
		where = "header " + p.Name
	}
	if errors.Is(re.Err, openapi3filter.ErrInvalidRequired) {
		return where + " is required"
	}
	if errors.Is(re.Err, openapi3filter.ErrInvalidEmptyValue) {
		return where + " must not be empty"
	}
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		return describeSchemaError(where, se)
	}
	if p.Schema != nil && p.Schema.Value != nil {
		// A value that does not parse as the parameter's type.
		return where + " must be " + typeWords(p.Schema.Value)
	}
	return where + " does not match the API contract"
}

// describeBodyError says which field of the body breaks which rule.
func describeBodyError(err error) string {
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		return "the request body does not match the API contract"
	}
	return describeSchemaError("", se)
}

// unsupportedProperty finds the field an additionalProperties: false
// refusal names.
var unsupportedProperty = regexp.MustCompile(`property "(.*)" is unsupported`)

// describeSchemaError renders a schema violation as "<where> must ...",
// where is a parameter, or a field of the body when empty.
func describeSchemaError(where string, se *openapi3.SchemaError) string {
	pointer := se.JSONPointer()
	if where == "" {
		where = bodyField(pointer)
	} else if len(pointer) > 0 {
		where += ", field " + fieldPath(pointer)
	}
	s := se.Schema
	if s == nil {
		return where + " does not match the API contract"
	}
	switch se.SchemaField {
	case "required":
		// The pointer already ends at the missing property.
		return where + " is required"
	case "type", "nullable":
		return where + " must be " + typeWords(s)
	case "enum":
		return where + " must be one of " + enumWords(s.Enum)
	case "format":
		return where + " must be " + formatWords(s.Format)
	case "pattern":
		return fmt.Sprintf("%s must match the pattern %s", where, s.Pattern)
	case "minLength":
		if s.MinLength <= 1 {
			return where + " must not be empty"
		}
		return fmt.Sprintf("%s must be at least %d characters", where, s.MinLength)
	case "maxLength":
		return fmt.Sprintf("%s must be at most %d characters", where, optional.Value(s.MaxLength))
	case "minimum":
		return fmt.Sprintf("%s must be at least %v", where, optional.Value(s.Min))
	case "maximum":
		return fmt.Sprintf("%s must be at most %v", where, optional.Value(s.Max))
	case "exclusiveMinimum":
		return fmt.Sprintf("%s must be greater than %v", where, optional.Value(s.Min))
	case "exclusiveMaximum":
		return fmt.Sprintf("%s must be less than %v", where, optional.Value(s.Max))
	case "minItems":
		return fmt.Sprintf("%s must list at least %d items", where, s.MinItems)
	case "maxItems":
		return fmt.Sprintf("%s must list at most %d items", where, optional.Value(s.MaxItems))
	case "uniqueItems":
		return where + " must not list the same item twice"
	case "minProperties":
		return fmt.Sprintf("%s must hold at least %d keys", where, s.MinProps)
	case "maxProperties":
		return fmt.Sprintf("%s must hold at most %d keys", where, optional.Value(s.MaxProps))
	case "additionalProperties":
		if m := unsupportedProperty.FindStringSubmatch(se.Reason); m != nil && len(m[1]) <= 64 {
			return fmt.Sprintf("%s has a field %q this operation does not know", where, m[1])
		}
		return where + " has a field this operation does not know"
	case "multipleOf":
		return fmt.Sprintf("%s must be a multiple of %v", where, optional.Value(s.MultipleOf))
	}
	return where + " does not match the API contract"
}

// typeWords says what a value of a schema's type is.
func typeWords(s *openapi3.Schema) string {
	switch {
	case s.Type.Is(openapi3.TypeString):
		return "a string"
	case s.Type.Is(openapi3.TypeInteger):
		return "an integer"
	case s.Type.Is(openapi3.TypeNumber):
		return "a number"
	case s.Type.Is(openapi3.TypeBoolean):
		return "true or false"
	case s.Type.Is(openapi3.TypeArray):
		return "an array"
	case s.Type.Is(openapi3.TypeObject):
		return "an object"
	}
	return "of the type the API contract gives it"
}

// formatWords says what a string of a format looks like.
func formatWords(format string) string {
	switch format {
	case "uuid":
		return "a UUID"
	case "date-time":
		return "an RFC 3339 date and time, e.g. 2026-01-31T12:00:00Z"
	case "date":
		return "a date, e.g. 2026-01-31"
	case "email":
		return "an e-mail address"
	case "uri":
		return "an absolute URI"
	}
	return "in the format " + format
}

// enumWords lists the allowed values of an enum short enough to read in
// one message (the webhook event types are the longest, at 22).
func enumWords(values []any) string {
	if len(values) > 30 {
		return "the values the API contract lists"
	}
	words := make([]string, len(values))
	for i, v := range values {
		words[i] = fmt.Sprint(v)
	}
	return strings.Join(words, ", ")
}

// fieldPath renders a JSON pointer as lines[0].quantity.
func fieldPath(pointer []string) string {
	var b strings.Builder
	for _, p := range pointer {
		if p != "" && strings.Trim(p, "0123456789") == "" {
			b.WriteString("[" + p + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}
