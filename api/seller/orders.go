package seller

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// orderHandlers serve the order and shipment operations through the order
// service.
type orderHandlers struct {
	service *services.Orders
}

// GetOrder returns an order of the caller.
func (h orderHandlers) GetOrder(ctx context.Context, req sellerapi.GetOrderRequestObject) (sellerapi.GetOrderResponseObject, error) {
	seller, id, err := callerAndID(ctx, "order", req.Id)
	if err != nil {
		return nil, err
	}
	o, err := h.service.Get(ctx, seller, id)
	if err != nil {
		return nil, orderError(err)
	}
	return sellerapi.GetOrder200JSONResponse(orderView(o)), nil
}

// AcknowledgeOrder acknowledges an order (from created).
func (h orderHandlers) AcknowledgeOrder(ctx context.Context, req sellerapi.AcknowledgeOrderRequestObject) (sellerapi.AcknowledgeOrderResponseObject, error) {
	summary, err := h.change(ctx, req.Id, h.service.Acknowledge)
	return sellerapi.AcknowledgeOrder200JSONResponse(summary), err
}

// AcceptOrder confirms an order (from created or acknowledged), which
// activates its rental contracts.
func (h orderHandlers) AcceptOrder(ctx context.Context, req sellerapi.AcceptOrderRequestObject) (sellerapi.AcceptOrderResponseObject, error) {
	summary, err := h.change(ctx, req.Id, h.service.Accept)
	return sellerapi.AcceptOrder200JSONResponse(summary), err
}

// RejectOrder rejects an order (from created or acknowledged).
func (h orderHandlers) RejectOrder(ctx context.Context, req sellerapi.RejectOrderRequestObject) (sellerapi.RejectOrderResponseObject, error) {
	summary, err := h.change(ctx, req.Id, h.service.Reject)
	return sellerapi.RejectOrder200JSONResponse(summary), err
}

// change runs one of the order service's changes on the order of the path.
func (h orderHandlers) change(ctx context.Context, rawID string, do func(context.Context, uuid.UUID, uuid.UUID) (orders.Stored, error)) (sellerapi.OrderSummary, error) {
	seller, id, err := callerAndID(ctx, "order", rawID)
	if err != nil {
		return sellerapi.OrderSummary{}, err
	}
	o, err := do(ctx, seller, id)
	if err != nil {
		return sellerapi.OrderSummary{}, orderError(err)
	}
	return orderSummaryView(o), nil
}

// SetOrderMetadata replaces an order's metadata.
func (h orderHandlers) SetOrderMetadata(ctx context.Context, req sellerapi.SetOrderMetadataRequestObject) (sellerapi.SetOrderMetadataResponseObject, error) {
	seller, id, err := callerAndID(ctx, "order", req.Id)
	if err != nil {
		return nil, err
	}
	o, err := h.service.SetMetadata(ctx, seller, id, req.Body.Metadata)
	if err != nil {
		return nil, orderError(err)
	}
	return sellerapi.SetOrderMetadata200JSONResponse(orderSummaryView(o)), nil
}

// CreateShipment reports shipped items of an order.
func (h orderHandlers) CreateShipment(ctx context.Context, req sellerapi.CreateShipmentRequestObject) (sellerapi.CreateShipmentResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	b := req.Body
	orderID, err := recordid.Parse(b.OrderId)
	if err != nil {
		return nil, orderError(services.ErrOrderNotFound)
	}
	shipment := orders.Shipment{TrackingURL: optional.Value(b.TrackingUrl), Metadata: optional.Value(b.Metadata)}
	for _, sn := range b.SerialNumbers {
		shipment.SerialNumbers = append(shipment.SerialNumbers, orders.SerialNumber{
			Source: sn.SellerProductReference.Source, Reference: sn.SellerProductReference.Reference, SerialNumber: sn.SerialNumber,
		})
	}
	if err := h.service.Ship(ctx, claims.SellerID, orderID, shipment); err != nil {
		return nil, orderError(err)
	}
	return sellerapi.CreateShipment200JSONResponse{Metadata: b.Metadata, SerialNumbers: b.SerialNumbers, TrackingUrl: b.TrackingUrl}, nil
}

// ListOrders returns the caller's orders matching the filters, oldest
// first, at most listing.UnpagedLimit (deprecated operation).
func (h orderHandlers) ListOrders(ctx context.Context, req sellerapi.ListOrdersRequestObject) (sellerapi.ListOrdersResponseObject, error) {
	p := req.Params
	rows, err := listAll(ctx, p.Query, p.CreatedBy, p.PartnersOnly, h.service.List)
	if err != nil {
		return nil, err
	}
	list := orderListItems(rows)
	return sellerapi.ListOrders200JSONResponse{Orders: &list}, nil
}

// ListOrdersPaginated returns one page of the caller's orders.
func (h orderHandlers) ListOrdersPaginated(ctx context.Context, req sellerapi.ListOrdersPaginatedRequestObject) (sellerapi.ListOrdersPaginatedResponseObject, error) {
	rows, page, err := listPage(ctx, req.Params, h.service.List)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListOrdersPaginated200JSONResponse{Orders: orderListItems(rows), Pagination: page}, nil
}

// orderListItems are the list entries of orders.
func orderListItems(rows []orders.ListItem) []sellerapi.OrderListItem {
	out := make([]sellerapi.OrderListItem, len(rows))
	for i, r := range rows {
		out[i] = sellerapi.OrderListItem{
			AgentName: r.AgentName, CompanyName: r.CompanyName, CreatedAt: r.CreatedAt, FullName: r.FullName,
			Id: r.ID.String(), OfferId: r.OfferID.String(), SellerOfferReference: r.SellerOfferReference,
			Status: sellerapi.OrderStatus(r.Status),
		}
	}
	return out
}

// orderError turns the order service's errors into the contract's.
func orderError(err error) error {
	if errors.Is(err, services.ErrOrderNotFound) {
		return apierror.NotFound("order not found")
	}
	return apierror.FromService("order", err)
}
