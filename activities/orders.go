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
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// Orders persists the status changes of order workflows, each in one
// transaction with the event it causes.
type Orders struct {
	Store      *db.Store
	Dispatcher *webhook.Dispatcher
	Views      Views
	// Starters start the workflows of the contracts an acceptance wrote.
	Starters Starters
	// Payouts are how a completed order's seller is owed.
	Payouts payouts.Terms
	Logger  *slog.Logger
	Metrics *telemetry.Metrics
}

// OrderTransition asks for one status change of an order, as its
// workflow's table declares it, and the event announcing it.
type OrderTransition struct {
	OrderID  uuid.UUID
	SellerID uuid.UUID
	From     orders.Status
	To       orders.Status
	// Event is the event the change announces; "" for none.
	Event webhook.EventType
}

// OrderTarget is where a shipment takes an order and the event announcing
// it.
type OrderTarget struct {
	To    orders.Status
	Event webhook.EventType
}

// OrderShipment records a shipment of an order in a status that allows it:
// the order moves to Partial when items are left to ship, to Complete
// otherwise. ShipmentID is fixed by the workflow, so a retried activity
// finds the shipment it recorded instead of recording it twice.
type OrderShipment struct {
	OrderID    uuid.UUID
	SellerID   uuid.UUID
	ShipmentID uuid.UUID
	From       orders.Status
	Shipment   orders.Shipment
	Partial    OrderTarget
	Complete   OrderTarget
}

// OrderRef names an order to an activity that needs nothing else.
type OrderRef struct {
	OrderID  uuid.UUID
	SellerID uuid.UUID
}

// OrderShipped says whether a shipment shipped the order's last items,
// and which contracts' last assets it shipped, whose terms start with it
// (at ShippedAt, when the shipment was recorded).
type OrderShipped struct {
	Complete  bool
	Delivered []uuid.UUID
	ShippedAt time.Time
}

// UnmarshalJSON also reads what the shipping activity answered before it
// reported completeness (recorded in histories): the order's new status.
func (s *OrderShipped) UnmarshalJSON(raw []byte) error {
	var status orders.Status
	if json.Unmarshal(raw, &status) == nil {
		s.Complete = status == orders.Completed
		return nil
	}
	type reported OrderShipped
	return json.Unmarshal(raw, (*reported)(s))
}

// Transition moves an order between statuses and records the event of the
// new status, if the spec has one.
func (a *Orders) Transition(ctx context.Context, in OrderTransition) error {
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		already, err := moveOrder(ctx, q, fx, in)
		if err != nil || already {
			return err
		}
		return a.emitOrderEvent(ctx, q, fx.emit, in.SellerID, in.OrderID, in.To, in.Event)
	})
}

// Accept accepts (confirms) an order and, in the same transaction, writes
// one rental contract per rented line, awaiting the delivery of the assets
// it rents: its rental is the line's for its quantity, with its services
// and discount (contracts.RentalOf). The order's workflow then starts the
// contracts' workflows (StartContracts).
func (a *Orders) Accept(ctx context.Context, in OrderTransition) error {
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		already, err := moveOrder(ctx, q, fx, in)
		if err != nil || already {
			return err
		}
		stored, err := orders.Load(ctx, q, in.SellerID, in.OrderID)
		if err != nil {
			return err
		}
		for i, line := range stored.Document.Lines {
			if line.ContractType != orders.Rent {
				continue
			}
			if err := writeContract(ctx, q, stored, i); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeContract writes the contract of an order's rented line and links
// the assets it rents.
func writeContract(ctx context.Context, q *dbgen.Queries, order orders.Stored, line int) error {
	rental, err := contracts.RentalOf(order.Document.Lines[line])
	if err != nil {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("order %s, line %d: %v", order.Row.ID, line, err), "ContractNotRented", err)
	}
	id := uuid.Must(uuid.NewV7())
	err = q.CreateRentalContract(ctx, dbgen.CreateRentalContractParams{
		ID:                   id,
		OrderID:              order.Row.ID,
		SellerID:             order.Row.SellerID,
		OfferID:              order.Row.OfferID,
		SellerOfferReference: order.Row.SellerOfferReference,
		LinePosition:         int32(line),
		ProductID:            order.Document.Lines[line].ProductID,
		Quantity:             int32(order.Document.Lines[line].Quantity),
		DurationMonths:       int32(rental.Months),
		MonthlyNet:           rental.Monthly.Net,
		MonthlyGross:         rental.Monthly.Gross,
		TaxRate:              rental.Monthly.TaxRate,
		Currency:             rental.Monthly.Currency,
		PurchaseNet:          rental.PurchaseNet,
	})
	if err != nil {
		return err
	}
	return linkAssets(ctx, q, id, order.Row.ID, order.Document, line)
}

// StartContracts starts the workflows of an order's contracts; one that
// runs or ran counts as started.
func (a *Orders) StartContracts(ctx context.Context, in OrderRef) error {
	rows, err := a.Store.ListOrderContracts(ctx, in.OrderID)
	if err != nil {
		return err
	}
	for _, row := range rows {
		if err := a.Starters.StartContract(ctx, ContractRef{ContractID: row.ID, SellerID: in.SellerID}, row.SellerOfferReference); err != nil {
			return err
		}
	}
	return nil
}

// Contracts are the ids of an order's contracts, in line order.
func (a *Orders) Contracts(ctx context.Context, in OrderRef) ([]uuid.UUID, error) {
	rows, err := a.Store.ListOrderContracts(ctx, in.OrderID)
	ids := make([]uuid.UUID, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	return ids, err
}

// Ship records a shipment: it matches the serial numbers to unshipped
// assets, stores them with the tracking link, and moves the order to the
// target the workflow gave for what it finds (items left or not) with its
// event. It answers whether the order's last items were shipped.
func (a *Orders) Ship(ctx context.Context, in OrderShipment) (OrderShipped, error) {
	var shipped OrderShipped
	err := changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		recorded, err := q.ShipmentExists(ctx, in.ShipmentID)
		if err != nil {
			return err
		}
		if recorded {
			current, err := q.GetOrder(ctx, dbgen.GetOrderParams{SellerID: in.SellerID, ID: in.OrderID})
			if err != nil {
				return err
			}
			shipped.Complete = orders.Status(current.Status) == in.Complete.To
			return deliveredBy(ctx, q, in, &shipped)
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
		target := in.Partial
		if complete {
			target = in.Complete
			if err := a.owePayout(ctx, q, in.SellerID, in.OrderID); err != nil {
				return err
			}
		}
		shipped.Complete = complete
		if _, err := moveOrder(ctx, q, fx, OrderTransition{OrderID: in.OrderID, SellerID: in.SellerID, From: in.From, To: target.To}); err != nil {
			return err
		}
		if err := deliveredBy(ctx, q, in, &shipped); err != nil {
			return err
		}
		return a.emitOrderEvent(ctx, q, fx.emit, in.SellerID, in.OrderID, target.To, target.Event)
	})
	return shipped, err
}

// owePayout books what the seller of an order completed in the
// transaction is owed (package payouts).
func (a *Orders) owePayout(ctx context.Context, q *dbgen.Queries, sellerID, orderID uuid.UUID) error {
	order, err := q.GetOrder(ctx, dbgen.GetOrderParams{SellerID: sellerID, ID: orderID})
	if err != nil {
		return err
	}
	return a.Payouts.Owe(ctx, q, order)
}

// deliveredBy notes the contracts whose last assets a shipment shipped,
// and when it was recorded.
func deliveredBy(ctx context.Context, q *dbgen.Queries, in OrderShipment, shipped *OrderShipped) error {
	shipment, err := q.GetShipment(ctx, in.ShipmentID)
	if err != nil {
		return err
	}
	shipped.ShippedAt = shipment.CreatedAt
	shipped.Delivered, err = q.ListContractsDeliveredBy(ctx, dbgen.ListContractsDeliveredByParams{OrderID: in.OrderID, ShipmentID: in.ShipmentID})
	return err
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
func moveOrder(ctx context.Context, q *dbgen.Queries, fx *effects, in OrderTransition) (already bool, err error) {
	_, err = q.SetOrderStatus(ctx, dbgen.SetOrderStatusParams{
		SellerID: in.SellerID, ID: in.OrderID, FromStatus: string(in.From), ToStatus: string(in.To),
	})
	if err == nil {
		fx.moved(orderEntity, string(in.From), string(in.To))
	}
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
// any, with the order as GET returns it after the change.
func (a *Orders) emitOrderEvent(ctx context.Context, q *dbgen.Queries, emit emitFunc, sellerID, orderID uuid.UUID, status orders.Status, eventType webhook.EventType) error {
	if eventType == "" {
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
