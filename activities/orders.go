package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/webhook"
	"github.com/tenurehq/tenure/workflows/order"
)

// Orders persists the status changes of order workflows, each in one
// transaction with the event it causes.
type Orders struct {
	Store      *db.Store
	Dispatcher *webhook.Dispatcher
	Logger     *slog.Logger
}

// orderEvents are the statuses whose arrival the spec announces.
var orderEvents = map[order.Status]webhook.EventType{
	order.Canceled:  webhook.OrderCanceled,
	order.Completed: webhook.OrderCompleted,
}

// errInvalidShipment is the application error type of a shipment that
// does not fit its order; the API answers it with 422 and its message.
const errInvalidShipment = "InvalidShipment"

// Transition moves an order between statuses and records the event of the
// new status, if the spec has one.
func (a *Orders) Transition(ctx context.Context, in order.TransitionInput) error {
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, func(q *dbgen.Queries, emit emitFunc) error {
		already, err := moveOrder(ctx, q, in)
		if err != nil || already {
			return err
		}
		return emitOrderEvent(ctx, q, emit, in.SellerID, in.OrderID, in.To)
	})
}

// Confirm confirms an order and activates one rental contract per rented
// line, starting today (UTC), in one transaction.
func (a *Orders) Confirm(ctx context.Context, in order.TransitionInput) error {
	return a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		already, err := moveOrder(ctx, q, in)
		if err != nil || already {
			return err
		}
		stored, err := q.GetOrder(ctx, dbgen.GetOrderParams{SellerID: in.SellerID, ID: in.OrderID})
		if err != nil {
			return err
		}
		var doc orders.Document
		if err := json.Unmarshal(stored.Document, &doc); err != nil {
			return fmt.Errorf("order %s has an unreadable document: %w", in.OrderID, err)
		}
		today := time.Now().UTC().Truncate(24 * time.Hour)
		for i, line := range doc.OrderLines {
			if line.ContractType != sellerapi.Rent {
				continue
			}
			err := q.CreateRentalContract(ctx, dbgen.CreateRentalContractParams{
				ID:             uuid.Must(uuid.NewV7()),
				OrderID:        in.OrderID,
				SellerID:       in.SellerID,
				LinePosition:   int32(i),
				ProductID:      parseOptionalID(line.ProductId),
				Quantity:       int32(line.Quantity),
				StartDate:      today,
				DurationMonths: int32(line.Duration),
				MonthlyNet:     line.MonthlyPrice.Net,
				MonthlyGross:   line.MonthlyPrice.Gross,
				Currency:       line.MonthlyPrice.Currency,
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// Ship records a shipment: it matches the serial numbers to unshipped
// assets, stores them with the tracking link, and moves the order to
// partially_fulfilled, or to completed (with its event) when nothing is
// left to ship. It answers the order's new status.
func (a *Orders) Ship(ctx context.Context, in order.ShipInput) (order.Status, error) {
	var to order.Status
	err := changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, func(q *dbgen.Queries, emit emitFunc) error {
		recorded, err := q.ShipmentExists(ctx, in.ShipmentID)
		if err != nil {
			return err
		}
		if recorded {
			current, err := q.GetOrder(ctx, dbgen.GetOrderParams{SellerID: in.SellerID, ID: in.OrderID})
			to = order.Status(current.Status)
			return err
		}
		assets, err := q.LockOrderAssets(ctx, in.OrderID)
		if err != nil {
			return err
		}
		allocations, complete, err := orders.Allocate(assets, in.Shipment)
		if err != nil {
			return temporal.NewNonRetryableApplicationError(err.Error(), errInvalidShipment, nil)
		}
		if err := refuseShippedSerials(ctx, q, in.SellerID, allocations); err != nil {
			return err
		}
		metadata, err := json.Marshal(nonNilMap(in.Shipment.Metadata))
		if err != nil {
			return err
		}
		err = q.CreateShipment(ctx, dbgen.CreateShipmentParams{
			ID: in.ShipmentID, OrderID: in.OrderID, SellerID: in.SellerID, TrackingUrl: in.Shipment.TrackingURL, Metadata: metadata,
		})
		if err != nil {
			return err
		}
		for _, al := range allocations {
			err := q.ShipOrderAsset(ctx, dbgen.ShipOrderAssetParams{
				ID: al.AssetID, SerialNumber: &al.SerialNumber, TrackingUrl: optional(in.Shipment.TrackingURL), ShipmentID: &in.ShipmentID,
			})
			if db.IsUniqueViolation(err, "order_assets_serial_number_key") {
				return temporal.NewNonRetryableApplicationError(
					fmt.Sprintf("serial number %q was shipped already", al.SerialNumber), errInvalidShipment, nil)
			}
			if err != nil {
				return err
			}
		}
		to = order.PartiallyFulfilled
		if complete {
			to = order.Completed
		}
		if _, err := moveOrder(ctx, q, order.TransitionInput{OrderID: in.OrderID, SellerID: in.SellerID, From: in.From, To: to}); err != nil {
			return err
		}
		return emitOrderEvent(ctx, q, emit, in.SellerID, in.OrderID, to)
	})
	return to, err
}

// refuseShippedSerials names the first serial number the seller shipped
// before (the unique index catches the races this check cannot see).
func refuseShippedSerials(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, allocations []orders.Allocation) error {
	for _, al := range allocations {
		if al.SerialNumber == "" {
			continue
		}
		shipped, err := q.SerialNumberShipped(ctx, dbgen.SerialNumberShippedParams{SellerID: sellerID, SerialNumber: &al.SerialNumber})
		if err != nil {
			return err
		}
		if shipped {
			return temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("serial number %q was shipped already", al.SerialNumber), errInvalidShipment, nil)
		}
	}
	return nil
}

// moveOrder changes the order's status only from the expected one. It
// reports already=true when the order is in the target status (a retried
// activity whose first run committed) and refuses any other status.
func moveOrder(ctx context.Context, q *dbgen.Queries, in order.TransitionInput) (already bool, err error) {
	_, err = q.SetOrderStatus(ctx, dbgen.SetOrderStatusParams{
		SellerID: in.SellerID, ID: in.OrderID, FromStatus: string(in.From), ToStatus: string(in.To),
	})
	if !db.IsNotFound(err) {
		return false, err
	}
	current, err := q.GetOrder(ctx, dbgen.GetOrderParams{SellerID: in.SellerID, ID: in.OrderID})
	if err != nil {
		return false, err
	}
	if order.Status(current.Status) == in.To {
		return true, nil
	}
	return false, temporal.NewNonRetryableApplicationError(
		fmt.Sprintf("order %s is %s, not %s", in.OrderID, current.Status, in.From), "OrderStatusMismatch", nil)
}

// emitOrderEvent records the event announcing the order's new status, if
// the spec has one, with the order as GET returns it after the change.
func emitOrderEvent(ctx context.Context, q *dbgen.Queries, emit emitFunc, sellerID, orderID uuid.UUID, status order.Status) error {
	eventType, ok := orderEvents[status]
	if !ok {
		return nil
	}
	stored, err := orders.Load(ctx, q, sellerID, orderID)
	if err != nil {
		return err
	}
	return emitOrder(emit, stored, eventType, status)
}

// emitOrder records an order event; its id derives from the order and the
// status it announces, so a retried activity records it once.
func emitOrder(emit emitFunc, stored orders.Stored, eventType webhook.EventType, status order.Status) error {
	view, err := orders.Render(stored)
	if err != nil {
		return err
	}
	return emitView(emit, webhook.NewEvent{
		ID:       webhook.EventID(order.WorkflowID(stored.Order.ID) + "/" + string(status)),
		SellerID: stored.Order.SellerID,
		Type:     eventType,
		ObjectID: stored.Order.ID,
	}, view)
}

func parseOptionalID(s *string) *uuid.UUID {
	if s == nil {
		return nil
	}
	id, err := uuid.Parse(*s)
	if err != nil {
		return nil
	}
	return &id
}

func nonNilMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
