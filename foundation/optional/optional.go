// Package optional converts between optional values (pointers, NULL
// columns, omitted JSON fields) and plain ones.
package optional

// Value is what p points to, or the zero value when p is nil.
func Value[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// NonZero points to v, or is nil when v is the zero value (a NULL column,
// an omitted field).
func NonZero[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
