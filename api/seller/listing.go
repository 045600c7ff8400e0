package seller

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/foundation/optional"
)

// listParams are the parameters of the paginated offer and order lists.
// Their generated parameter types have exactly these fields, the sort ones
// of types of their own; listParamsOf reads either.
type listParams struct {
	Limit, Page                                          *int64
	Query, CreatedBy                                     *string
	PartnersOnly                                         *bool
	SortBy, SortOrder                                    *string
	IdGt, IdGte, IdLt, IdLte                             *uuid.UUID
	CreatedAtGt, CreatedAtGte, CreatedAtLt, CreatedAtLte *time.Time
}

// listParamsOf copies the fields of a generated list parameter struct.
func listParamsOf(generated any) listParams {
	var p listParams
	dst, src := reflect.ValueOf(&p).Elem(), reflect.ValueOf(generated)
	for i := range dst.NumField() {
		from := src.FieldByName(dst.Type().Field(i).Name)
		if !from.IsValid() {
			panic(fmt.Sprintf("list parameters %T lack %s", generated, dst.Type().Field(i).Name))
		}
		to := dst.Field(i)
		if !from.IsNil() {
			value := reflect.New(to.Type().Elem())
			value.Elem().Set(from.Elem().Convert(to.Type().Elem()))
			to.Set(value)
		}
	}
	return p
}

// listPage is one page of a seller's offers or orders, as list reads them,
// with its pagination.
func listPage[T any](ctx context.Context, generated any, list func(context.Context, uuid.UUID, listing.Filter) ([]T, int64, error)) ([]T, sellerapi.Pagination, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, sellerapi.Pagination{}, err
	}
	f, err := pagedFilter(listParamsOf(generated))
	if err != nil {
		return nil, sellerapi.Pagination{}, err
	}
	records, total, err := list(ctx, claims.SellerID, f)
	return records, pagination(f, total), err
}

// listAll is a seller's offers or orders matching the filters of the
// deprecated unpaginated lists, at most listing.UnpagedLimit.
func listAll[T any](ctx context.Context, query, createdBy *string, partnersOnly *bool, list func(context.Context, uuid.UUID, listing.Filter) ([]T, int64, error)) ([]T, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	records, _, err := list(ctx, claims.SellerID, unpagedFilter(query, createdBy, partnersOnly))
	return records, err
}

// pagedFilter checks the paging parameters (limit at least 1, default 20,
// capped at 100 as the spec says; page zero-based) and reads the filters.
func pagedFilter(p listParams) (listing.Filter, error) {
	f := unpagedFilter(p.Query, p.CreatedBy, p.PartnersOnly)
	var err error
	if f.Limit, f.Page, err = paging(p.Limit, p.Page); err != nil {
		return f, err
	}
	f.SortBy = optional.Value(p.SortBy)
	f.Descending = optional.Value(p.SortOrder) == "desc"
	f.IDGt, f.IDGte, f.IDLt, f.IDLte = p.IdGt, p.IdGte, p.IdLt, p.IdLte
	f.CreatedAtGt, f.CreatedAtGte, f.CreatedAtLt, f.CreatedAtLte = p.CreatedAtGt, p.CreatedAtGte, p.CreatedAtLt, p.CreatedAtLte
	return f, nil
}

// unpagedFilter reads the filters of the deprecated unpaginated lists;
// the guard has checked their lengths against seller.yaml.
func unpagedFilter(query, createdBy *string, partnersOnly *bool) listing.Filter {
	return listing.Filter{
		Query:        optional.Value(query),
		CreatedBy:    listing.CreatedByEmails(optional.Value(createdBy)),
		PartnersOnly: optional.Value(partnersOnly),
		Limit:        listing.UnpagedLimit,
	}
}

// pagination describes a page of a list of total records.
func pagination(f listing.Filter, total int64) sellerapi.Pagination {
	pages := f.TotalPages(total)
	return sellerapi.Pagination{Page: &f.Page, PageSize: &f.Limit, TotalCount: &total, TotalPages: &pages}
}
