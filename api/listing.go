package api

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/listing"
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

// pagedFilter checks the paging parameters (limit at least 1, default 20,
// capped at 100 as the spec says; page zero-based) and reads the filters.
func pagedFilter(p listParams) (listing.Filter, error) {
	f, err := unpagedFilter(p.query, p.createdBy, p.partnersOnly)
	if err != nil {
		return f, err
	}
	f.Limit = listing.DefaultLimit
	if p.limit != nil {
		if *p.limit < 1 {
			return f, BadRequest("query parameter limit must be at least 1, got %d", *p.limit)
		}
		f.Limit = min(*p.limit, listing.MaxLimit)
	}
	page, err := pageIndex(p.page)
	if err != nil {
		return f, err
	}
	f.Page = page
	f.SortBy = deref(p.sortBy)
	f.Descending = deref(p.sortOrder) == "desc"
	f.IDGt, f.IDGte, f.IDLt, f.IDLte = p.idGt, p.idGte, p.idLt, p.idLte
	f.CreatedAtGt, f.CreatedAtGte, f.CreatedAtLt, f.CreatedAtLte = p.createdAtGt, p.createdAtGte, p.createdAtLt, p.createdAtLte
	return f, nil
}

// unpagedFilter reads the filters of the deprecated unpaginated lists.
func unpagedFilter(query, createdBy *string, partnersOnly *bool) (listing.Filter, error) {
	if err := limitText("query", deref(query), maxNameLength); err != nil {
		return listing.Filter{}, err
	}
	if err := limitText("created_by", deref(createdBy), maxCreatedBy); err != nil {
		return listing.Filter{}, err
	}
	return listing.Filter{
		Query:        deref(query),
		CreatedBy:    listing.CreatedByEmails(deref(createdBy)),
		PartnersOnly: deref(partnersOnly),
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
