// Package recordid reads the ids of Tenure's records (offers, orders,
// webhook endpoints, events, imports, discount codes, sessions) as clients
// send them, by one rule on both APIs.
//
// An id is a UUID in the form RFC 9562 §4 defines: 32 hexadecimal digits
// in groups of 8-4-4-4-12 separated by hyphens. RFC 9562 writes the digits
// in lower case and reads them "case insensitive on input", which is what
// the contracts' `format: uuid` means; so an id is read in either case (a
// client that upper-cases UUIDs, as Apple's Foundation does, names the same
// record) and written in lower case. Other spellings uuid.Parse would take
// (no hyphens, braces, a urn:uuid: prefix) name nothing: an id has one
// spelling per record, up to case, so that caches, logs and signatures
// over an id agree.
package recordid

import (
	"errors"

	"github.com/google/uuid"
)

// length is the length of a UUID's 8-4-4-4-12 form.
const length = 36

// ErrNotAnID says a value is not a record id.
var ErrNotAnID = errors.New("not a UUID of the form 8-4-4-4-12 hexadecimal digits")

// Parse reads a record id: a UUID in the 8-4-4-4-12 form, hexadecimal
// digits of either case.
func Parse(s string) (uuid.UUID, error) {
	if len(s) != length {
		return uuid.Nil, ErrNotAnID
	}
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, ErrNotAnID
	}
	return id, nil
}

// Canonical is s in the form Tenure writes it when s is a record id (lower
// case), and s unchanged otherwise: for values that are record ids or
// names, such as the lines of an offer, compared as text.
func Canonical(s string) string {
	if id, err := Parse(s); err == nil {
		return id.String()
	}
	return s
}
