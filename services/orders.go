package services

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/foundation/weburl"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// Orders changes orders through their workflows and reads them from
// PostgreSQL. Every change returns once the workflow persisted it.
type Orders struct {
	Store    *db.Store
	Temporal client.Client
	// URLs is the rule for the tracking links a customer follows.
	URLs weburl.Rule
}

// NewOrders is the order service of a configuration.
func NewOrders(cfg *config.Config, store *db.Store, temporal client.Client) *Orders {
	return &Orders{Store: store, Temporal: temporal, URLs: cfg.FollowedURLs()}
}

// ErrOrderNotFound is an order that does not exist for the seller.
var ErrOrderNotFound = errors.New("order not found")

// Change sends the update of a trigger of the order's table (acknowledge,
// accept, reject, cancel) and returns the order once it is persisted.
func (s *Orders) Change(ctx context.Context, sellerID, orderID uuid.UUID, t statemachine.Trigger) (orders.Stored, error) {
	if err := s.update(ctx, sellerID, orderID, t.Update, nil); err != nil {
		return orders.Stored{}, err
	}
	return s.Get(ctx, sellerID, orderID)
}

// Acknowledge acknowledges an order (from created).
func (s *Orders) Acknowledge(ctx context.Context, sellerID, orderID uuid.UUID) (orders.Stored, error) {
	return s.Change(ctx, sellerID, orderID, order.Acknowledge)
}

// Accept confirms an order (from created or acknowledged), which activates
// its rental contracts.
func (s *Orders) Accept(ctx context.Context, sellerID, orderID uuid.UUID) (orders.Stored, error) {
	return s.Change(ctx, sellerID, orderID, order.Accept)
}

// Reject rejects an order (from created or acknowledged).
func (s *Orders) Reject(ctx context.Context, sellerID, orderID uuid.UUID) (orders.Stored, error) {
	return s.Change(ctx, sellerID, orderID, order.Reject)
}

// Cancel cancels an order, as Tenure or the customer would.
func (s *Orders) Cancel(ctx context.Context, sellerID, orderID uuid.UUID) (orders.Stored, error) {
	return s.Change(ctx, sellerID, orderID, order.Cancel)
}

// Ship records a shipment of an order.
func (s *Orders) Ship(ctx context.Context, sellerID, orderID uuid.UUID, shipment orders.Shipment) error {
	if err := orders.CheckShipment(shipment, s.URLs); err != nil {
		return err
	}
	return s.update(ctx, sellerID, orderID, order.ShipAll.Update, nil, order.ShipRequest{Shipment: shipment})
}

// SetMetadata replaces an order's metadata (string values of at most 400
// characters); metadata is not a status, so it changes without the workflow.
func (s *Orders) SetMetadata(ctx context.Context, sellerID, orderID uuid.UUID, metadata map[string]string) (orders.Stored, error) {
	if err := orders.CheckMetadata(metadata); err != nil {
		return orders.Stored{}, err
	}
	raw, err := json.Marshal(metadata)
	if err != nil {
		return orders.Stored{}, err
	}
	_, err = s.Store.SetOrderMetadata(ctx, dbgen.SetOrderMetadataParams{SellerID: sellerID, ID: orderID, Metadata: raw})
	if db.IsNotFound(err) {
		return orders.Stored{}, ErrOrderNotFound
	}
	if err != nil {
		return orders.Stored{}, err
	}
	return s.Get(ctx, sellerID, orderID)
}

// Get reads an order of a seller.
func (s *Orders) Get(ctx context.Context, sellerID, orderID uuid.UUID) (orders.Stored, error) {
	stored, err := orders.Load(ctx, s.Store.Queries, sellerID, orderID)
	if db.IsNotFound(err) {
		return stored, ErrOrderNotFound
	}
	return stored, err
}

// List returns one page of a seller's orders and how many match in all.
func (s *Orders) List(ctx context.Context, sellerID uuid.UUID, f listing.Filter) ([]orders.ListItem, int64, error) {
	rows, err := s.Store.ListOrders(ctx, dbgen.ListOrdersParams{
		SellerID: sellerID, Query: f.QueryPattern(), CreatedBy: f.CreatedByList(), PartnersOnly: f.PartnersOnly,
		IDGt: f.IDGt, IDGte: f.IDGte, IDLt: f.IDLt, IDLte: f.IDLte,
		CreatedAtGt: f.CreatedAtGt, CreatedAtGte: f.CreatedAtGte, CreatedAtLt: f.CreatedAtLt, CreatedAtLte: f.CreatedAtLte,
		Status: f.StatusFilter(), Descending: f.Descending, RowLimit: f.Limit, RowOffset: f.Offset(),
	})
	if err != nil || len(rows) == 0 {
		return nil, 0, err
	}
	out := make([]orders.ListItem, len(rows))
	for i, r := range rows {
		out[i] = listItem(dbgen.ListOrdersNewestRow{
			ID: r.ID, OfferID: r.OfferID, SellerOfferReference: r.SellerOfferReference, Status: r.Status,
			AgentName: r.AgentName, CompanyName: r.CompanyName, FullName: r.FullName, CreatedAt: r.CreatedAt,
		})
	}
	return out, rows[0].TotalCount, nil
}

// Newest returns one page of a seller's orders, newest first, matching
// the filter's query or id, status, and older than its IDLt: the
// portal's list, which shows no count of every match (counting them
// reads every order of the seller).
func (s *Orders) Newest(ctx context.Context, sellerID uuid.UUID, f listing.Filter) ([]orders.ListItem, error) {
	rows, err := s.Store.ListOrdersNewest(ctx, dbgen.ListOrdersNewestParams{
		SellerID: sellerID, Query: f.QueryPattern(), IDGte: f.IDGte, IDLt: f.IDLt, IDLte: f.IDLte,
		Status: f.StatusFilter(), RowLimit: f.Limit,
	})
	if err != nil {
		return nil, err
	}
	out := make([]orders.ListItem, len(rows))
	for i, r := range rows {
		out[i] = listItem(r)
	}
	return out, nil
}

// listItem is an order as the lists show it.
func listItem(r dbgen.ListOrdersNewestRow) orders.ListItem {
	return orders.ListItem{
		ID: r.ID, OfferID: r.OfferID, SellerOfferReference: r.SellerOfferReference, Status: orders.Status(r.Status),
		AgentName: r.AgentName, CompanyName: r.CompanyName, FullName: r.FullName, CreatedAt: r.CreatedAt,
	}
}

// update sends an update to an order's workflow and explains a refusal:
// the workflow's own, a shipment that does not fit, or (for an order in a
// final status, whose workflow ended) the status; anything else is a fault.
func (s *Orders) update(ctx context.Context, sellerID, orderID uuid.UUID, update string, result any, args ...any) error {
	if _, err := s.Store.GetOrder(ctx, dbgen.GetOrderParams{SellerID: sellerID, ID: orderID}); db.IsNotFound(err) {
		return ErrOrderNotFound
	} else if err != nil {
		return err
	}
	err := entity.Update(ctx, s.Temporal, order.WorkflowID(orderID), update, result, args...)
	return explainUpdate(ctx, err, order.Transitions, update, func(ctx context.Context) (orders.Status, error) {
		current, err := s.Store.GetOrder(ctx, dbgen.GetOrderParams{SellerID: sellerID, ID: orderID})
		return orders.Status(current.Status), err
	})
}
