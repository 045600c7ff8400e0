package api

import (
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/order"
)

// orderHandlers serve the order and shipment operations through the order
// service.
type orderHandlers struct {
	service *orders.Service
}

// GetOrder returns an order of the caller.
func (h orderHandlers) GetOrder(ctx context.Context, req sellerapi.GetOrderRequestObject) (sellerapi.GetOrderResponseObject, error) {
	seller, id, err := callerAndID(ctx, "order", req.Id)
	if err != nil {
		return nil, err
	}
	o, err := h.service.Get(ctx, seller, id)
	return sellerapi.GetOrder200JSONResponse(o), orderError(err)
}

// AcknowledgeOrder acknowledges an order (from created).
func (h orderHandlers) AcknowledgeOrder(ctx context.Context, req sellerapi.AcknowledgeOrderRequestObject) (sellerapi.AcknowledgeOrderResponseObject, error) {
	summary, err := h.change(ctx, req.Id, order.AcknowledgeUpdate)
	return sellerapi.AcknowledgeOrder200JSONResponse(summary), err
}

// AcceptOrder confirms an order (from created or acknowledged), which
// activates its rental contracts.
func (h orderHandlers) AcceptOrder(ctx context.Context, req sellerapi.AcceptOrderRequestObject) (sellerapi.AcceptOrderResponseObject, error) {
	summary, err := h.change(ctx, req.Id, order.AcceptUpdate)
	return sellerapi.AcceptOrder200JSONResponse(summary), err
}

// RejectOrder rejects an order (from created or acknowledged).
func (h orderHandlers) RejectOrder(ctx context.Context, req sellerapi.RejectOrderRequestObject) (sellerapi.RejectOrderResponseObject, error) {
	summary, err := h.change(ctx, req.Id, order.RejectUpdate)
	return sellerapi.RejectOrder200JSONResponse(summary), err
}

func (h orderHandlers) change(ctx context.Context, rawID, update string) (sellerapi.OrderSummary, error) {
	seller, id, err := callerAndID(ctx, "order", rawID)
	if err != nil {
		return sellerapi.OrderSummary{}, err
	}
	summary, err := h.service.Change(ctx, seller, id, update)
	return summary, orderError(err)
}

// SetOrderMetadata replaces an order's metadata.
func (h orderHandlers) SetOrderMetadata(ctx context.Context, req sellerapi.SetOrderMetadataRequestObject) (sellerapi.SetOrderMetadataResponseObject, error) {
	seller, id, err := callerAndID(ctx, "order", req.Id)
	if err != nil {
		return nil, err
	}
	summary, err := h.service.SetMetadata(ctx, seller, id, req.Body.Metadata)
	return sellerapi.SetOrderMetadata200JSONResponse(summary), orderError(err)
}

// CreateShipment reports shipped items of an order.
func (h orderHandlers) CreateShipment(ctx context.Context, req sellerapi.CreateShipmentRequestObject) (sellerapi.CreateShipmentResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	shipment, err := h.service.Ship(ctx, claims.SellerID, *req.Body)
	return sellerapi.CreateShipment200JSONResponse(shipment), orderError(err)
}

// ListOrders returns the caller's orders matching the filters, oldest
// first, at most listing.UnpagedLimit (deprecated operation).
func (h orderHandlers) ListOrders(ctx context.Context, req sellerapi.ListOrdersRequestObject) (sellerapi.ListOrdersResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	f, err := unpagedFilter(req.Params.Query, req.Params.CreatedBy, req.Params.PartnersOnly)
	if err != nil {
		return nil, err
	}
	list, _, err := h.service.List(ctx, claims.SellerID, f)
	return sellerapi.ListOrders200JSONResponse{Orders: &list}, err
}

// ListOrdersPaginated returns one page of the caller's orders.
func (h orderHandlers) ListOrdersPaginated(ctx context.Context, req sellerapi.ListOrdersPaginatedRequestObject) (sellerapi.ListOrdersPaginatedResponseObject, error) {
	claims, err := sellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	p := req.Params
	f, err := pagedFilter(listParams{
		limit: p.Limit, page: p.Page, query: p.Query, createdBy: p.CreatedBy, partnersOnly: p.PartnersOnly,
		sortBy: (*string)(p.SortBy), sortOrder: (*string)(p.SortOrder),
		idGt: p.IdGt, idGte: p.IdGte, idLt: p.IdLt, idLte: p.IdLte,
		createdAtGt: p.CreatedAtGt, createdAtGte: p.CreatedAtGte, createdAtLt: p.CreatedAtLt, createdAtLte: p.CreatedAtLte,
	})
	if err != nil {
		return nil, err
	}
	list, total, err := h.service.List(ctx, claims.SellerID, f)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListOrdersPaginated200JSONResponse{Orders: list, Pagination: pagination(f, total)}, nil
}

// orderError turns the order service's errors into the contract's.
func orderError(err error) error {
	var input *orders.InputError
	var refusal *entity.StatusRefusal
	switch {
	case err == nil:
		return nil
	case errors.As(err, &input):
		return BadRequest("%s", input.Message)
	case errors.Is(err, orders.ErrNotFound):
		return NotFound("order not found")
	case errors.As(err, &refusal):
		return Unprocessable("%s", refusal.Message)
	case errors.Is(err, entity.ErrUnavailable):
		return Unavailable("the order workflow did not confirm the change in time; read the order before retrying")
	}
	return err
}
