package orders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/listing"
	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/order"
)

// Service changes orders through their workflows and reads them from
// PostgreSQL. Every change returns once the workflow persisted it.
type Service struct {
	Store    *db.Store
	Temporal client.Client
}

// ErrNotFound is an order that does not exist for the seller.
var ErrNotFound = errors.New("order not found")

// InputError is a shipment or metadata value beyond Tenure's limits (400).
type InputError struct{ Message string }

func (e *InputError) Error() string { return e.Message }

// Limits of shipments.
const (
	maxSerialNumber = 255
	maxTrackingURL  = 2048
	maxShipped      = 10000
)

// Change sends one of the order updates (acknowledge, accept, reject,
// cancel) and returns the order's summary once it is persisted.
func (s *Service) Change(ctx context.Context, sellerID, orderID uuid.UUID, update string) (sellerapi.OrderSummary, error) {
	if err := s.update(ctx, sellerID, orderID, update, nil); err != nil {
		return sellerapi.OrderSummary{}, err
	}
	return s.Summary(ctx, sellerID, orderID)
}

// Ship records a shipment of an order and echoes it.
func (s *Service) Ship(ctx context.Context, sellerID uuid.UUID, req sellerapi.ShipmentCreateRequest) (sellerapi.Shipment, error) {
	orderID, err := uuid.Parse(req.OrderId)
	if err != nil {
		return sellerapi.Shipment{}, ErrNotFound
	}
	shipment, err := shipmentOf(req)
	if err != nil {
		return sellerapi.Shipment{}, err
	}
	if err := s.update(ctx, sellerID, orderID, order.ShipUpdate, nil, order.ShipRequest{Shipment: shipment}); err != nil {
		return sellerapi.Shipment{}, err
	}
	return sellerapi.Shipment{Metadata: req.Metadata, SerialNumbers: req.SerialNumbers, TrackingUrl: req.TrackingUrl}, nil
}

func shipmentOf(req sellerapi.ShipmentCreateRequest) (order.Shipment, error) {
	if len(req.SerialNumbers) == 0 {
		return order.Shipment{}, &InputError{"field serial_numbers must list at least one shipped item"}
	}
	if len(req.SerialNumbers) > maxShipped {
		return order.Shipment{}, &InputError{fmt.Sprintf("field serial_numbers may list at most %d items", maxShipped)}
	}
	out := order.Shipment{TrackingURL: deref(req.TrackingUrl), Metadata: deref(req.Metadata)}
	if u := out.TrackingURL; u != "" {
		if parsed, err := url.Parse(u); err != nil || !parsed.IsAbs() || utf8.RuneCountInString(u) > maxTrackingURL {
			return order.Shipment{}, &InputError{fmt.Sprintf("field tracking_url must be an absolute URL of at most %d characters", maxTrackingURL)}
		}
	}
	if err := offers.CheckMetadata("metadata", out.Metadata); err != nil {
		return order.Shipment{}, &InputError{err.Error()}
	}
	for i, sn := range req.SerialNumbers {
		if utf8.RuneCountInString(sn.SerialNumber) > maxSerialNumber {
			return order.Shipment{}, &InputError{fmt.Sprintf("field serial_numbers[%d].serial_number must be at most %d characters", i, maxSerialNumber)}
		}
		out.SerialNumbers = append(out.SerialNumbers, order.SerialNumber{
			Source: sn.SellerProductReference.Source, Reference: sn.SellerProductReference.Reference, SerialNumber: sn.SerialNumber,
		})
	}
	return out, nil
}

// SetMetadata replaces an order's metadata (string values of at most 400
// characters); metadata is not a status, so it changes without the workflow.
func (s *Service) SetMetadata(ctx context.Context, sellerID, orderID uuid.UUID, metadata map[string]string) (sellerapi.OrderSummary, error) {
	if err := offers.CheckMetadata("metadata", metadata); err != nil {
		return sellerapi.OrderSummary{}, &InputError{err.Error()}
	}
	raw, err := json.Marshal(metadata)
	if err != nil {
		return sellerapi.OrderSummary{}, err
	}
	_, err = s.Store.SetOrderMetadata(ctx, dbgen.SetOrderMetadataParams{SellerID: sellerID, ID: orderID, Metadata: raw})
	if db.IsNotFound(err) {
		return sellerapi.OrderSummary{}, ErrNotFound
	}
	if err != nil {
		return sellerapi.OrderSummary{}, err
	}
	return s.Summary(ctx, sellerID, orderID)
}

// Get reads an order as GET /v1/orders/{id} returns it.
func (s *Service) Get(ctx context.Context, sellerID, orderID uuid.UUID) (sellerapi.Order, error) {
	stored, err := s.load(ctx, sellerID, orderID)
	if err != nil {
		return sellerapi.Order{}, err
	}
	return Render(stored)
}

// Summary reads an order's summary.
func (s *Service) Summary(ctx context.Context, sellerID, orderID uuid.UUID) (sellerapi.OrderSummary, error) {
	stored, err := s.load(ctx, sellerID, orderID)
	if err != nil {
		return sellerapi.OrderSummary{}, err
	}
	return Summarize(stored)
}

func (s *Service) load(ctx context.Context, sellerID, orderID uuid.UUID) (Stored, error) {
	stored, err := Load(ctx, s.Store.Queries, sellerID, orderID)
	if db.IsNotFound(err) {
		return stored, ErrNotFound
	}
	return stored, err
}

// List returns one page of a seller's orders and how many match in all.
func (s *Service) List(ctx context.Context, sellerID uuid.UUID, f listing.Filter) ([]sellerapi.OrderListItem, int64, error) {
	rows, err := s.Store.ListOrders(ctx, dbgen.ListOrdersParams{
		SellerID: sellerID, Query: f.QueryPattern(), CreatedBy: f.CreatedByList(), PartnersOnly: f.PartnersOnly,
		IDGt: f.IDGt, IDGte: f.IDGte, IDLt: f.IDLt, IDLte: f.IDLte,
		CreatedAtGt: f.CreatedAtGt, CreatedAtGte: f.CreatedAtGte, CreatedAtLt: f.CreatedAtLt, CreatedAtLte: f.CreatedAtLte,
		Descending: f.Descending, RowLimit: f.Limit, RowOffset: f.Offset(),
	})
	if err != nil {
		return nil, 0, err
	}
	out := make([]sellerapi.OrderListItem, len(rows))
	var total int64
	for i, r := range rows {
		total = r.TotalCount
		out[i] = sellerapi.OrderListItem{
			AgentName: r.AgentName, CompanyName: r.CompanyName, CreatedAt: r.CreatedAt, FullName: r.FullName,
			Id: r.ID.String(), OfferId: r.OfferID.String(), SellerOfferReference: r.SellerOfferReference,
			Status: sellerapi.OrderStatus(r.Status),
		}
	}
	return out, total, nil
}

// update sends an update to an order's workflow and explains a refusal:
// the workflow's own, a shipment that does not fit, or (for an order in a
// final status, whose workflow ended) the status.
func (s *Service) update(ctx context.Context, sellerID, orderID uuid.UUID, update string, result any, args ...any) error {
	if _, err := s.Store.GetOrder(ctx, dbgen.GetOrderParams{SellerID: sellerID, ID: orderID}); db.IsNotFound(err) {
		return ErrNotFound
	} else if err != nil {
		return err
	}
	err := entity.Update(ctx, s.Temporal, order.WorkflowID(orderID), update, result, args...)
	if err == nil {
		return nil
	}
	if app, ok := entity.Refusal(err); ok {
		return &entity.StatusRefusal{Message: app.Message()}
	}
	if entity.Ended(err) {
		current, getErr := s.Store.GetOrder(context.WithoutCancel(ctx), dbgen.GetOrderParams{SellerID: sellerID, ID: orderID})
		if getErr != nil {
			return getErr
		}
		return &entity.StatusRefusal{Message: order.Refusal(order.Status(current.Status), update)}
	}
	if entity.TimedOut(err) {
		return entity.ErrUnavailable
	}
	return err
}
