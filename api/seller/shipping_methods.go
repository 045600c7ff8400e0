package seller

import (
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// shippingMethodPageSize is how many shipping methods one page holds.
const shippingMethodPageSize = 50

// shippingMethods serves a seller's shipping methods through their
// service.
type shippingMethods struct {
	service *services.ShippingMethods
}

// ListShippingMethods returns one zero-based page of the caller's shipping
// methods in creation order.
func (h shippingMethods) ListShippingMethods(ctx context.Context, req sellerapi.ListShippingMethodsRequestObject) (sellerapi.ListShippingMethodsResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	page, err := pageIndex(req.Params.Page)
	if err != nil {
		return nil, err
	}
	methods, hasMore, err := h.service.List(ctx, claims.SellerID, page, shippingMethodPageSize)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListShippingMethods200JSONResponse{
		Data:       views.Of(methods, shippingMethodView),
		Pagination: sellerapi.PageInfo{Page: page, HasMore: hasMore},
	}, nil
}

// CreateShippingMethod adds a shipping method; its reference must be new for
// the seller.
func (h shippingMethods) CreateShippingMethod(ctx context.Context, req sellerapi.CreateShippingMethodRequestObject) (sellerapi.CreateShippingMethodResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	body := req.Body
	// The contract states the fields' lengths (the guard enforces them),
	// not that the reference must not be empty.
	if body.SellerShippingMethodReference == "" {
		return nil, apierror.BadRequest("field seller_shipping_method_reference must not be empty")
	}
	created, err := h.service.Create(ctx, claims.SellerID, sellers.ShippingMethod{
		Reference: body.SellerShippingMethodReference, Name: optional.Value(body.Name), InStorePickup: optional.Value(body.IsInStorePickup),
	})
	if errors.Is(err, services.ErrShippingMethodExists) {
		return nil, apierror.Unprocessable("a shipping method with seller_shipping_method_reference %q already exists", body.SellerShippingMethodReference)
	}
	if err != nil {
		return nil, err
	}
	return sellerapi.CreateShippingMethod201JSONResponse(shippingMethodView(created)), nil
}

func shippingMethodView(m sellers.ShippingMethod) sellerapi.ShippingMethod {
	return sellerapi.ShippingMethod{
		Id:                            m.ID.String(),
		IsInStorePickup:               &m.InStorePickup,
		Name:                          &m.Name,
		SellerShippingMethodReference: m.Reference,
		Supported:                     m.Supported,
	}
}
