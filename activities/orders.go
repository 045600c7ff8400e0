package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/internal/optional"
	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/refusal"
	"github.com/tenurehq/tenure/webhook"
)

// Orders persists the status changes of order workflows, each in one
// transaction with the event it causes.
type Orders struct {
	Store      *db.Store
	Dispatcher *webhook.Dispatcher
	Views      Views
	Logger     *slog.Logger
}

// OrderTransition asks for one status change of an order.
type OrderTransition struct {
	OrderID  uuid.UUID
	SellerID uuid.UUID
	From     orders.Status
	To       orders.Status
}

// OrderShipment records a shipment of an order in a status that allows it.
// ShipmentID is fixed by the workflow, so a retried activity finds the
// shipment it recorded instead of recording it twice.
type OrderShipment struct {
	OrderID    uuid.UUID
	SellerID   uuid.UUID
	ShipmentID uuid.UUID
	From       orders.Status
	Shipment   orders.Shipment
}

// orderEvents are the statuses whose arrival the spec announces.
var orderEvents = map[orders.Status]webhook.EventType{
	orders.Canceled:  webhook.OrderCanceled,
	orders.Completed: webhook.OrderCompleted,
}

// Transition moves an order between statuses and records the event of the
// new status, if the spec has one.
func (a *Orders) Transition(ctx context.Context, in OrderTransition) error {
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, func(q *dbgen.Queries, emit emitFunc) error {
		already, err := moveOrder(ctx, q, in)
		if err != nil || already {
			return err
		}
		return a.emitOrderEvent(ctx, q, emit, in.SellerID, in.OrderID, in.To)
	})
}

// Confirm confirms an order and activates one rental contract per rented
// line, starting today (UTC), in one transaction.
func (a *Orders) Confirm(ctx context.Context, in OrderTransition) error {
	return a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		already, err := moveOrder(ctx, q, in)
		if err != nil || already {
			return err
		}
		stored, err := orders.Load(ctx, q, in.SellerID, in.OrderID)
		if err != nil {
			return err
		}
		today := time.Now().UTC().Truncate(24 * time.Hour)
		for i, line := range stored.Document.Lines {
			if line.ContractType != orders.Rent {
				continue
			}
			err := q.CreateRentalContract(ctx, dbgen.CreateRentalContractParams{
				ID:             uuid.Must(uuid.NewV7()),
				OrderID:        in.OrderID,
				SellerID:       in.SellerID,
				LinePosition:   int32(i),
				ProductID:      line.ProductID,
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
func (a *Orders) Ship(ctx context.Context, in OrderShipment) (orders.Status, error) {
	var to orders.Status
	err := changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, func(q *dbgen.Queries, emit emitFunc) error {
		recorded, err := q.ShipmentExists(ctx, in.ShipmentID)
		if err != nil {
			return err
		}
		if recorded {
			current, err := q.GetOrder(ctx, dbgen.GetOrderParams{SellerID: in.SellerID, ID: in.OrderID})
			to = orders.Status(current.Status)
			return err
		}
		rows, err := q.LockOrderAssets(ctx, in.OrderID)
		if err != nil {
			return err
		}
		assets, err := orders.AssetsOf(rows)
		if err != nil {
			return err
		}
		allocations, complete, err := orders.Allocate(assets, in.Shipment)
		if err != nil {
			return refuse(refusal.New(refusal.InvalidShipment, "%s", err.Error()))
		}
		if err := refuseShippedSerials(ctx, q, in.SellerID, allocations); err != nil {
			return err
		}
		metadata := in.Shipment.Metadata
		if metadata == nil {
			metadata = map[string]string{}
		}
		raw, err := json.Marshal(metadata)
		if err != nil {
			return err
		}
		err = q.CreateShipment(ctx, dbgen.CreateShipmentParams{
			ID: in.ShipmentID, OrderID: in.OrderID, SellerID: in.SellerID, TrackingUrl: in.Shipment.TrackingURL, Metadata: raw,
		})
		if err != nil {
			return err
		}
		for _, al := range allocations {
			err := q.ShipOrderAsset(ctx, dbgen.ShipOrderAssetParams{
				ID: al.AssetID, SerialNumber: &al.SerialNumber, TrackingUrl: optional.NonZero(in.Shipment.TrackingURL), ShipmentID: &in.ShipmentID,
			})
			if db.IsUniqueViolation(err, "order_assets_serial_number_key") {
				return shippedAlready(al.SerialNumber)
			}
			if err != nil {
				return err
			}
		}
		to = orders.PartiallyFulfilled
		if complete {
			to = orders.Completed
		}
		if _, err := moveOrder(ctx, q, OrderTransition{OrderID: in.OrderID, SellerID: in.SellerID, From: in.From, To: to}); err != nil {
			return err
		}
		return a.emitOrderEvent(ctx, q, emit, in.SellerID, in.OrderID, to)
	})
	return to, err
}

// shippedAlready refuses a serial number the seller shipped before.
func shippedAlready(serialNumber string) error {
	return refuse(refusal.New(refusal.InvalidShipment, "serial number %q was shipped already", serialNumber))
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
			return shippedAlready(al.SerialNumber)
		}
	}
	return nil
}

// moveOrder changes the order's status only from the expected one. It
// reports already=true when the order is in the target status (a retried
// activity whose first run committed) and fails for any other status: the
// workflow and the row disagree, which is a fault, not a refusal.
func moveOrder(ctx context.Context, q *dbgen.Queries, in OrderTransition) (already bool, err error) {
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
	if orders.Status(current.Status) == in.To {
		return true, nil
	}
	return false, temporal.NewNonRetryableApplicationError(
		fmt.Sprintf("order %s is %s, not %s", in.OrderID, current.Status, in.From), "OrderStatusMismatch", nil)
}

// emitOrderEvent records the event announcing the order's new status, if
// the spec has one, with the order as GET returns it after the change.
func (a *Orders) emitOrderEvent(ctx context.Context, q *dbgen.Queries, emit emitFunc, sellerID, orderID uuid.UUID, status orders.Status) error {
	eventType, ok := orderEvents[status]
	if !ok {
		return nil
	}
	stored, err := orders.Load(ctx, q, sellerID, orderID)
	if err != nil {
		return err
	}
	return emitOrder(emit, a.Views, stored, eventType, status)
}

// emitOrder records an order event; its id derives from the order and the
// status it announces, so a retried activity records it once.
func emitOrder(emit emitFunc, views Views, stored orders.Stored, eventType webhook.EventType, status orders.Status) error {
	payload, err := views.Order(stored)
	if err != nil {
		return err
	}
	return emit(webhook.NewEvent{
		ID:       webhook.EventID(orders.EventSource(stored.Row.ID, status)),
		SellerID: stored.Row.SellerID,
		Type:     eventType,
		ObjectID: stored.Row.ID,
		Payload:  payload,
	})
}
