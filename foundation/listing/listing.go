// Package listing is the filter and paging of the offer and order lists:
// the same list parameters for both, checked once.
package listing

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
)

// Page sizes of the paginated lists.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	// MaxPage bounds page indexes so offsets stay far from overflow.
	MaxPage = 1_000_000
	// UnpagedLimit is how many records the deprecated unpaginated lists
	// return at most.
	UnpagedLimit = 1000
)

// Filter selects and orders records of one seller.
type Filter struct {
	// Query is a case-insensitive substring of the record's search text.
	Query        string
	CreatedBy    []string
	PartnersOnly bool
	IDGt         *uuid.UUID
	IDGte        *uuid.UUID
	IDLt         *uuid.UUID
	IDLte        *uuid.UUID
	CreatedAtGt  *time.Time
	CreatedAtGte *time.Time
	CreatedAtLt  *time.Time
	CreatedAtLte *time.Time
	// Status keeps the orders of one status ("" for every status); the
	// offer lists do not take it.
	Status     string
	SortBy     string
	Descending bool
	Limit      int64
	Page       int64
}

// QueryPattern is the escaped, lower-cased query for a LIKE '%...%' match;
// nil when there is none.
func (f Filter) QueryPattern() *string {
	if f.Query == "" {
		return nil
	}
	q := db.EscapeLike(strings.ToLower(f.Query))
	return &q
}

// StatusFilter is the status filter as the queries take it: nil for
// every status.
func (f Filter) StatusFilter() *string {
	if f.Status == "" {
		return nil
	}
	return &f.Status
}

// CreatedByEmails splits the comma-separated created_by parameter into
// lower-cased e-mails.
func CreatedByEmails(param string) []string {
	var out []string
	for _, e := range strings.Split(param, ",") {
		if e = strings.TrimSpace(strings.ToLower(e)); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// CreatedByList is the created_by filter as the queries take it: an empty
// list (not nil, which SQL would compare as NULL) means every creator.
func (f Filter) CreatedByList() []string {
	if f.CreatedBy == nil {
		return []string{}
	}
	return f.CreatedBy
}

// Offset is where the page starts.
func (f Filter) Offset() int64 { return f.Page * f.Limit }

// TotalPages is how many pages of Limit records total records fill.
func (f Filter) TotalPages(total int64) int64 {
	if total == 0 {
		return 0
	}
	return (total + f.Limit - 1) / f.Limit
}
