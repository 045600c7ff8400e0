package seller

import (
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// Search page sizes.
const (
	// defaultProductPageSize is the page size when limit is absent.
	defaultProductPageSize = 20
	// maxProductPageSize is the largest page, and the most products the
	// unpaginated search returns.
	maxProductPageSize = 100
)

// catalogReads serves product searches and support checks through the
// catalog service.
type catalogReads struct {
	catalog *services.Catalog
	engine  *pricing.Engine
}

// SearchProducts returns the first products that match a term.
func (h catalogReads) SearchProducts(ctx context.Context, req sellerapi.SearchProductsRequestObject) (sellerapi.SearchProductsResponseObject, error) {
	term := optional.Value(req.Params.Term)
	rows, _, err := h.search(ctx, catalog.Query{Term: term, Limit: maxProductPageSize})
	if err != nil {
		return nil, err
	}
	return sellerapi.SearchProducts200JSONResponse(rows), nil
}

// SearchProductsPaginated returns one page of the products that match a
// term.
func (h catalogReads) SearchProductsPaginated(ctx context.Context, req sellerapi.SearchProductsPaginatedRequestObject) (sellerapi.SearchProductsPaginatedResponseObject, error) {
	page, err := h.page(ctx, catalog.Query{Term: optional.Value(req.Params.Term)}, req.Params.Limit, req.Params.Page)
	if err != nil {
		return nil, err
	}
	return sellerapi.SearchProductsPaginated200JSONResponse(page), nil
}

// FilterProductsPaginated returns one page of the products that match a
// term and filters.
func (h catalogReads) FilterProductsPaginated(ctx context.Context, req sellerapi.FilterProductsPaginatedRequestObject) (sellerapi.FilterProductsPaginatedResponseObject, error) {
	q := catalog.Query{Term: optional.Value(req.Params.Term)}
	if req.Body != nil {
		q.Any = optional.Value(req.Body.FilteringLogic) == sellerapi.OR
		for _, f := range optional.Value(req.Body.FilteringOptions) {
			q.Filters = append(q.Filters, catalog.Filter{Property: f.Property, Operation: string(f.Operation), Value: f.Value})
		}
	}
	page, err := h.page(ctx, q, req.Params.Limit, req.Params.Page)
	if err != nil {
		return nil, err
	}
	return sellerapi.FilterProductsPaginated200JSONResponse(page), nil
}

// page runs a query for one zero-based page of limit products (at most
// maxProductPageSize).
func (h catalogReads) page(ctx context.Context, q catalog.Query, limitParam, pageParam *int64) (sellerapi.ProductPage, error) {
	limit := int64(defaultProductPageSize)
	if limitParam != nil {
		if *limitParam < 1 {
			return sellerapi.ProductPage{}, apierror.BadRequest("query parameter limit must be at least 1, got %d", *limitParam)
		}
		// The spec caps a page at 100 rather than refusing more.
		limit = min(*limitParam, maxProductPageSize)
	}
	page, err := pageIndex(pageParam)
	if err != nil {
		return sellerapi.ProductPage{}, err
	}
	q.Limit, q.Offset = limit, page*limit
	rows, total, err := h.search(ctx, q)
	if err != nil {
		return sellerapi.ProductPage{}, err
	}
	pages := (total + limit - 1) / limit
	return sellerapi.ProductPage{Limit: &limit, Page: &page, Rows: &rows, TotalPages: &pages, TotalRows: &total}, nil
}

func (h catalogReads) search(ctx context.Context, q catalog.Query) ([]sellerapi.CatalogProduct, int64, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, 0, err
	}
	q.SellerID = claims.SellerID
	found, err := h.catalog.Search(ctx, q)
	var filterErr *catalog.FilterError
	if errors.As(err, &filterErr) {
		return nil, 0, apierror.BadRequest("%s", filterErr.Error())
	}
	if err != nil {
		return nil, 0, err
	}
	rows := views.Of(found.Items, func(it catalog.Item) sellerapi.CatalogProduct { return catalogProduct(it, q.Term, h.engine) })
	return rows, found.Total, nil
}

// CheckProductsSupported reports, per known reference, whether its product
// can be financed; unknown references are left out.
func (h catalogReads) CheckProductsSupported(ctx context.Context, req sellerapi.CheckProductsSupportedRequestObject) (sellerapi.CheckProductsSupportedResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	asked := req.Body.SellerProductReferences
	refs := make([]catalog.Reference, len(asked))
	for i, r := range asked {
		refs[i] = catalogReference(r)
	}
	found, err := h.catalog.Find(ctx, claims.SellerID, refs)
	if err != nil {
		return nil, err
	}
	products := []sellerapi.ProductSupport{}
	seen := map[catalog.Reference]bool{}
	for _, r := range refs {
		p, ok := found[r]
		if !ok || seen[r] {
			continue
		}
		seen[r] = true
		products = append(products, sellerapi.ProductSupport{
			Id:                     p.ID.String(),
			IsSupported:            p.Sellable,
			AvailableContractTerms: contractTerms(p.Sellable, p.Product, h.engine),
			SellerProductReference: reference(r),
		})
	}
	return sellerapi.CheckProductsSupported200JSONResponse{Products: products}, nil
}
