package api

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/foundation/optional"
)

// shippingMethodPageSize is how many shipping methods one page holds.
const shippingMethodPageSize = 50

// shippingMethods serves a seller's shipping methods.
type shippingMethods struct {
	store *db.Store
}

// ListShippingMethods returns one zero-based page of the caller's shipping
// methods in creation order.
func (h shippingMethods) ListShippingMethods(ctx context.Context, req sellerapi.ListShippingMethodsRequestObject) (sellerapi.ListShippingMethodsResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	page, err := pageIndex(req.Params.Page)
	if err != nil {
		return nil, err
	}
	// One row more than a page tells whether another page follows.
	rows, err := h.store.ListShippingMethods(ctx, dbgen.ListShippingMethodsParams{
		SellerID:  claims.SellerID,
		RowLimit:  shippingMethodPageSize + 1,
		RowOffset: page * shippingMethodPageSize,
	})
	if err != nil {
		return nil, err
	}
	hasMore := len(rows) > shippingMethodPageSize
	if hasMore {
		rows = rows[:shippingMethodPageSize]
	}
	data := make([]sellerapi.ShippingMethod, len(rows))
	for i, r := range rows {
		data[i] = shippingMethodView(r)
	}
	return sellerapi.ListShippingMethods200JSONResponse{
		Data:       data,
		Pagination: sellerapi.PageInfo{Page: page, HasMore: hasMore},
	}, nil
}

// CreateShippingMethod adds a shipping method; its reference must be new for
// the seller.
func (h shippingMethods) CreateShippingMethod(ctx context.Context, req sellerapi.CreateShippingMethodRequestObject) (sellerapi.CreateShippingMethodResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	body := req.Body
	// The contract states the fields' lengths (the guard enforces them),
	// not that the reference must not be empty.
	if body.SellerShippingMethodReference == "" {
		return nil, BadRequest("field seller_shipping_method_reference must not be empty")
	}
	name := optional.Value(body.Name)
	id := idempotency.NewID(ctx)
	row, err := h.store.CreateShippingMethod(ctx, dbgen.CreateShippingMethodParams{
		ID:                            id,
		SellerID:                      claims.SellerID,
		SellerShippingMethodReference: body.SellerShippingMethodReference,
		Name:                          name,
		IsInStorePickup:               optional.Value(body.IsInStorePickup),
		Supported:                     true,
	})
	if db.IsNotFound(err) {
		// The reference is taken, by the first attempt of this request if
		// it resumes one.
		row, err = h.createdBy(ctx, claims.SellerID, body.SellerShippingMethodReference, id)
	}
	if db.IsNotFound(err) {
		return nil, Unprocessable("a shipping method with seller_shipping_method_reference %q already exists", body.SellerShippingMethodReference)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.CreateShippingMethod201JSONResponse(shippingMethodView(row)), nil
}

// createdBy returns the seller's shipping method with a reference if a
// resumed request's first attempt created it under the request's id, and
// no row otherwise.
func (h shippingMethods) createdBy(ctx context.Context, sellerID uuid.UUID, reference string, id uuid.UUID) (dbgen.ShippingMethod, error) {
	if !idempotency.Resumed(ctx) {
		return dbgen.ShippingMethod{}, pgx.ErrNoRows
	}
	row, err := h.store.GetShippingMethodByReference(ctx, dbgen.GetShippingMethodByReferenceParams{
		SellerID: sellerID, SellerShippingMethodReference: reference,
	})
	if err == nil && row.ID != id {
		return dbgen.ShippingMethod{}, pgx.ErrNoRows
	}
	return row, err
}

func shippingMethodView(r dbgen.ShippingMethod) sellerapi.ShippingMethod {
	return sellerapi.ShippingMethod{
		Id:                            r.ID.String(),
		IsInStorePickup:               &r.IsInStorePickup,
		Name:                          &r.Name,
		SellerShippingMethodReference: r.SellerShippingMethodReference,
		Supported:                     r.Supported,
	}
}
