package api

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/listing"
	"github.com/tenurehq/tenure/optional"
)

// listParams are the list parameters offers and orders share.
type listParams struct {
	limit, page                                          *int64
	query, createdBy                                     *string
	partnersOnly                                         *bool
	sortBy, sortOrder                                    *string
	idGt, idGte, idLt, idLte                             *uuid.UUID
	createdAtGt, createdAtGte, createdAtLt, createdAtLte *time.Time
}

// pagedFilter checks the paging parameters (limit 1–100, default 20; page
// zero-based) and reads the filters.
func pagedFilter(p listParams) (listing.Filter, error) {
	f, err := unpagedFilter(p.query, p.createdBy, p.partnersOnly)
	if err != nil {
		return f, err
	}
	f.Limit = listing.DefaultLimit
	if p.limit != nil {
		if *p.limit < 1 || *p.limit > listing.MaxLimit {
			return f, BadRequest("query parameter limit must be between 1 and %d, got %d", listing.MaxLimit, *p.limit)
		}
		f.Limit = *p.limit
	}
	page, err := pageIndex(p.page)
	if err != nil {
		return f, err
	}
	f.Page = page
	f.SortBy = optional.Value(p.sortBy)
	f.Descending = optional.Value(p.sortOrder) == "desc"
	f.IDGt, f.IDGte, f.IDLt, f.IDLte = p.idGt, p.idGte, p.idLt, p.idLte
	f.CreatedAtGt, f.CreatedAtGte, f.CreatedAtLt, f.CreatedAtLte = p.createdAtGt, p.createdAtGte, p.createdAtLt, p.createdAtLte
	return f, nil
}

// unpagedFilter reads the filters of the deprecated unpaginated lists.
func unpagedFilter(query, createdBy *string, partnersOnly *bool) (listing.Filter, error) {
	if err := limitText("query", optional.Value(query), maxNameLength); err != nil {
		return listing.Filter{}, err
	}
	if err := limitText("created_by", optional.Value(createdBy), maxCreatedBy); err != nil {
		return listing.Filter{}, err
	}
	return listing.Filter{
		Query:        optional.Value(query),
		CreatedBy:    listing.CreatedByEmails(optional.Value(createdBy)),
		PartnersOnly: optional.Value(partnersOnly),
		Limit:        listing.UnpagedLimit,
	}, nil
}

// maxCreatedBy bounds the comma-separated e-mails of created_by.
const maxCreatedBy = 4096

// pagination describes a page of a list of total records.
func pagination(f listing.Filter, total int64) sellerapi.Pagination {
	pages := f.TotalPages(total)
	return sellerapi.Pagination{Page: &f.Page, PageSize: &f.Limit, TotalCount: &total, TotalPages: &pages}
}
