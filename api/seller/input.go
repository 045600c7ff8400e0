package seller

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/foundation/recordid"
)

// maxPage bounds page indexes so offsets stay far from overflow.
const maxPage = 1_000_000

// pageIndex reads an optional zero-based page parameter.
func pageIndex(p *int64) (int64, error) {
	if p == nil {
		return 0, nil
	}
	if *p < 0 || *p > maxPage {
		return 0, apierror.BadRequest("query parameter page must be between 0 and %d, got %d", maxPage, *p)
	}
	return *p, nil
}

// paging reads the paging parameters of a paginated list: the page size
// (at least 1, the default when absent, capped at listing.MaxLimit as the
// spec says) and the zero-based page.
func paging(l, p *int64) (limit, page int64, err error) {
	limit = listing.DefaultLimit
	if l != nil {
		if *l < 1 {
			return 0, 0, apierror.BadRequest("query parameter limit must be at least 1, got %d", *l)
		}
		limit = min(*l, listing.MaxLimit)
	}
	page, err = pageIndex(p)
	return limit, page, err
}

// callerAndID reads the caller's seller and the id of an offer or order in
// the path; an id that is not a UUID names nothing of the caller's.
func callerAndID(ctx context.Context, what, raw string) (uuid.UUID, uuid.UUID, error) {
	return callerAnd(ctx, raw, func(raw string) error { return apierror.NotFound("%s %s not found", what, raw) })
}

// callerAnd is the caller's seller and the record id of a path; an id that
// is no UUID names no record: notFound's 404, like an unknown one.
func callerAnd(ctx context.Context, raw string, notFound func(raw string) error) (seller, id uuid.UUID, err error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	id, err = recordid.Parse(raw)
	if err != nil {
		return uuid.Nil, uuid.Nil, notFound(raw)
	}
	return claims.SellerID, id, nil
}
