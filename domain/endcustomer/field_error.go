package endcustomer

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The codes of field errors; clients may rely on them.
const (
	// CodeRequired: the field is missing or empty.
	CodeRequired = "required"
	// CodeInvalidFormat: the value does not have the field's shape.
	CodeInvalidFormat = "invalid_format"
	// CodeNotAllowed: a well-formed value this checkout does not accept.
	CodeNotAllowed = "not_allowed"
	// CodeTooLong: the value has more characters than the field takes.
	CodeTooLong = "too_long"
)

// FieldError is one bad field: a stable code, the field's JSON path in the
// API (end_customer.billing_address.country_code) and an English message.
type FieldError struct {
	Code    string
	Field   string
	Message string
}

// fieldErrors collects the problems of one validation.
type fieldErrors []FieldError

func (fe *fieldErrors) add(code, field, format string, args ...any) {
	*fe = append(*fe, FieldError{Code: code, Field: field, Message: fmt.Sprintf(format, args...)})
}

// text trims a free-text field and checks its length and characters;
// false when it reported a problem. An empty value is the caller's to
// judge (it may be optional).
func (fe *fieldErrors) text(field, value string, maxLen int) (string, bool) {
	value = strings.TrimSpace(value)
	switch {
	case !utf8.ValidString(value) || strings.IndexFunc(value, unicode.IsControl) >= 0:
		fe.add(CodeInvalidFormat, field, "must be text without control characters")
		return value, false
	case utf8.RuneCountInString(value) > maxLen:
		fe.add(CodeTooLong, field, "must be at most %d characters", maxLen)
		return value, false
	}
	return value, true
}

// required is text that must not be empty.
func (fe *fieldErrors) required(field, value string, maxLen int) string {
	value, ok := fe.text(field, value, maxLen)
	if ok && value == "" {
		fe.add(CodeRequired, field, "is required")
	}
	return value
}
