package activities

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/risk"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/telemetry"
)

// Offers persists the status changes of offer workflows, each in one
// transaction with the events it causes, and starts the workflows of the
// offers and orders they lead to.
type Offers struct {
	Store      *db.Store
	Dispatcher *webhook.Dispatcher
	Views      Views
	Starters   Starters
	// Risk decides the offers under review in production.
	Risk    *risk.Policy
	Logger  *slog.Logger
	Metrics *telemetry.Metrics
}

// OfferRef names an offer to an activity that needs nothing else.
type OfferRef struct {
	OfferID  uuid.UUID
	SellerID uuid.UUID
}

// OfferTransition asks for one status change of an offer, as its
// workflow's table declares it, and the event announcing it.
type OfferTransition struct {
	OfferID  uuid.UUID
	SellerID uuid.UUID
	From     offers.Status
	To       offers.Status
	// Event is the event the change announces; "" for none.
	Event        webhook.EventType
	SupersededBy *uuid.UUID
}

// OfferAcceptance accepts an offer, which creates its order in the status
// the order's table starts it in, announced by OrderEvent.
type OfferAcceptance struct {
	Offer       OfferTransition
	OrderStatus orders.Status
	OrderEvent  webhook.EventType
}

// OfferEdit voids an offer in favour of the one Draft describes.
type OfferEdit struct {
	Offer OfferTransition
	Draft offers.Draft
}

// OfferStart starts the workflow of an offer whose row exists.
type OfferStart struct {
	OfferID   uuid.UUID
	SellerID  uuid.UUID
	Review    offers.Review
	ExpiresAt time.Time
}

// OrderStart starts the workflow of an order whose rows exist.
type OrderStart struct {
	OrderID  uuid.UUID
	SellerID uuid.UUID
}

// OfferAccepted names the order an accepted offer became.
type OfferAccepted struct {
	OrderID uuid.UUID
}

// activeReferenceIndex is the unique index that keeps a reference to one
// active offer per seller.
const activeReferenceIndex = "offers_active_reference_key"

// Create stores a new offer. A reference an active offer took meanwhile
// refuses it for good.
func (a *Offers) Create(ctx context.Context, d offers.Draft) error {
	row, err := offers.Row(d)
	if err != nil {
		return err
	}
	if err := refuseTakenReference(a.Store.CreateOffer(ctx, row), d.SellerOfferReference); err != nil {
		return err
	}
	a.Metrics.Transition(offerEntity, "", string(offers.Created))
	return nil
}

// offerEntity and orderEntity name the state machines in the transition
// metrics.
const (
	offerEntity = "offer"
	orderEntity = "order"
)

func refuseTakenReference(err error, reference string) error {
	if db.IsUniqueViolation(err, activeReferenceIndex) {
		return refuse(offers.ReferenceInUse(reference))
	}
	return err
}

// Transition moves an offer between statuses and records the event of the
// new status.
func (a *Offers) Transition(ctx context.Context, in OfferTransition) error {
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		return a.transition(ctx, q, fx, in)
	})
}

// transition is Transition inside a transaction.
func (a *Offers) transition(ctx context.Context, q *dbgen.Queries, fx *effects, in OfferTransition) error {
	row, already, err := moveOffer(ctx, q, fx, in)
	if err != nil || already {
		return err
	}
	return a.emitOfferEvent(fx.emit, row, in.Event)
}

// Accept accepts an offer and creates its order in the same transaction:
// the order copies the lines (one asset per unit), the customer, the
// shipping and the seller; the events announce both (offer.accepted and
// order.created).
func (a *Offers) Accept(ctx context.Context, in OfferAcceptance) (OfferAccepted, error) {
	var result OfferAccepted
	err := changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) (err error) {
		result, err = a.accept(ctx, q, fx, in)
		return err
	})
	return result, err
}

// accept is Accept inside a transaction.
func (a *Offers) accept(ctx context.Context, q *dbgen.Queries, fx *effects, in OfferAcceptance) (OfferAccepted, error) {
	o := in.Offer
	row, already, err := moveOffer(ctx, q, fx, o)
	if err != nil {
		return OfferAccepted{}, err
	}
	if already {
		existing, err := q.GetOrderByOffer(ctx, dbgen.GetOrderByOfferParams{SellerID: o.SellerID, OfferID: o.OfferID})
		return OfferAccepted{OrderID: existing.ID}, err
	}
	result := OfferAccepted{OrderID: uuid.Must(uuid.NewV7())}
	if err := createOrder(ctx, q, result.OrderID, row); err != nil {
		return result, err
	}
	fx.moved(orderEntity, "", string(in.OrderStatus))
	if err := a.emitOfferEvent(fx.emit, row, o.Event); err != nil {
		return result, err
	}
	stored, err := orders.Load(ctx, q, o.SellerID, result.OrderID)
	if err != nil {
		return result, err
	}
	return result, emitOrder(fx.emit, a.Views, stored, in.OrderEvent, in.OrderStatus)
}

func createOrder(ctx context.Context, q *dbgen.Queries, orderID uuid.UUID, row dbgen.Offer) error {
	offer, err := offers.Decode(row)
	if err != nil {
		return err
	}
	seller, err := q.GetSeller(ctx, row.SellerID)
	if err != nil {
		return err
	}
	info, err := orders.SellerOf(seller)
	if err != nil {
		return err
	}
	created, err := orders.FromOffer(orderID, offer, info)
	if err != nil {
		return err
	}
	if _, err := q.CreateOrder(ctx, created.Order); err != nil {
		return err
	}
	_, err = q.CreateOrderAssets(ctx, created.Assets)
	return err
}

// Edit voids an offer in favour of the one its draft describes, stored in
// the same transaction (so the new offer may keep the old one's reference).
func (a *Offers) Edit(ctx context.Context, in OfferEdit) error {
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		row, already, err := moveOffer(ctx, q, fx, in.Offer)
		if err != nil || already {
			return err
		}
		created, err := offers.Row(in.Draft)
		if err != nil {
			return err
		}
		if err := refuseTakenReference(q.CreateOffer(ctx, created), in.Draft.SellerOfferReference); err != nil {
			return err
		}
		fx.moved(offerEntity, "", string(offers.Created))
		return a.emitOfferEvent(fx.emit, row, in.Offer.Event)
	})
}

// StartOffer starts the workflow of an offer whose row exists (the one an
// edit created); a running workflow counts as started.
func (a *Offers) StartOffer(ctx context.Context, in OfferStart) error {
	row, err := a.Store.GetOffer(ctx, dbgen.GetOfferParams{SellerID: in.SellerID, ID: in.OfferID})
	if err != nil {
		return err
	}
	return a.Starters.StartOffer(ctx, in, row.SellerOfferReference)
}

// StartOrder starts the workflow of an order whose rows exist; a running
// workflow counts as started.
func (a *Offers) StartOrder(ctx context.Context, in OrderStart) error {
	row, err := a.Store.GetOrder(ctx, dbgen.GetOrderParams{SellerID: in.SellerID, ID: in.OrderID})
	if err != nil {
		return err
	}
	return a.Starters.StartOrder(ctx, in, row.SellerOfferReference)
}

// moveOffer changes an offer's status only from the expected one. It
// reports already=true when the offer is in the target status (a retried
// activity whose first run committed) and fails for any other status: the
// workflow and the row disagree, which is a fault, not a refusal.
func moveOffer(ctx context.Context, q *dbgen.Queries, fx *effects, in OfferTransition) (dbgen.Offer, bool, error) {
	row, err := q.SetOfferStatus(ctx, dbgen.SetOfferStatusParams{
		SellerID: in.SellerID, ID: in.OfferID, FromStatus: string(in.From), ToStatus: string(in.To), SupersededByID: in.SupersededBy,
	})
	if err == nil {
		fx.moved(offerEntity, string(in.From), string(in.To))
	}
	if !db.IsNotFound(err) {
		return row, false, err
	}
	current, err := q.GetOffer(ctx, dbgen.GetOfferParams{SellerID: in.SellerID, ID: in.OfferID})
	if err != nil {
		return current, false, err
	}
	if offers.Status(current.Status) == in.To {
		return current, true, nil
	}
	return current, false, temporal.NewNonRetryableApplicationError(
		fmt.Sprintf("offer %s is %s, not %s", in.OfferID, current.Status, in.From), "OfferStatusMismatch", nil)
}

// emitOfferEvent records the event announcing the offer's status, if any,
// with the offer as GET returns it after the change.
func (a *Offers) emitOfferEvent(emit emitFunc, row dbgen.Offer, eventType webhook.EventType) error {
	if eventType == "" {
		return nil
	}
	stored, err := offers.Decode(row)
	if err != nil {
		return err
	}
	payload, err := a.Views.Offer(stored)
	if err != nil {
		return err
	}
	return emit(webhook.NewEvent{
		ID:       webhook.EventID(offers.EventSource(row.ID, offers.Status(row.Status))),
		SellerID: row.SellerID,
		Type:     eventType,
		ObjectID: row.ID,
		Payload:  payload,
	})
}
