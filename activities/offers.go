package activities

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/google/uuid"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/offers"
	"github.com/tenurehq/tenure/orders"
	"github.com/tenurehq/tenure/webhook"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
	"github.com/tenurehq/tenure/workflows/searchattr"
)

// Offers persists the status changes of offer workflows, each in one
// transaction with the events it causes, and starts the workflows of the
// offers and orders they lead to.
type Offers struct {
	Store      *db.Store
	Temporal   client.Client
	Dispatcher *webhook.Dispatcher
	Risk       offers.RiskRules
	Logger     *slog.Logger
}

// offerEvents are the statuses whose arrival the spec announces.
var offerEvents = map[offer.Status]webhook.EventType{
	offer.PendingReview: webhook.OfferPendingReview,
	offer.Accepted:      webhook.OfferAccepted,
	offer.Declined:      webhook.OfferDeclined,
	offer.Voided:        webhook.OfferVoided,
	offer.Expired:       webhook.OfferExpired,
}

// activeReferenceIndex is the unique index that keeps a reference to one
// active offer per seller.
const activeReferenceIndex = "offers_active_reference_key"

// Create stores a new offer. A reference an active offer took meanwhile
// refuses it for good (non-retryable, named as the API's rejection).
func (a *Offers) Create(ctx context.Context, d offer.Draft) error {
	row, err := offers.Row(d)
	if err != nil {
		return err
	}
	return refuseTakenReference(a.Store.CreateOffer(ctx, row), d.SellerOfferReference)
}

func refuseTakenReference(err error, reference string) error {
	if db.IsUniqueViolation(err, activeReferenceIndex) {
		r := offers.ReferenceInUse(reference)
		return temporal.NewNonRetryableApplicationError(r.Message, r.Name, nil)
	}
	return err
}

// Transition moves an offer between statuses and records the event of the
// new status.
func (a *Offers) Transition(ctx context.Context, in offer.TransitionInput) error {
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, func(q *dbgen.Queries, emit emitFunc) error {
		row, already, err := moveOffer(ctx, q, in)
		if err != nil || already {
			return err
		}
		return emitOfferEvent(emit, row)
	})
}

// Accept accepts an offer and creates its order in the same transaction:
// the order copies the lines (one asset per unit), the customer, the
// shipping and the seller; events offer.accepted and order.created.
func (a *Offers) Accept(ctx context.Context, ref offer.Ref) (offer.AcceptResult, error) {
	var result offer.AcceptResult
	err := changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, func(q *dbgen.Queries, emit emitFunc) error {
		row, already, err := moveOffer(ctx, q, offer.TransitionInput{OfferID: ref.OfferID, SellerID: ref.SellerID, From: offer.PendingReview, To: offer.Accepted})
		if err != nil {
			return err
		}
		if already {
			existing, err := q.GetOrderByOffer(ctx, dbgen.GetOrderByOfferParams{SellerID: ref.SellerID, OfferID: ref.OfferID})
			result.OrderID = existing.ID
			return err
		}
		result.OrderID = uuid.Must(uuid.NewV7())
		if err := createOrder(ctx, q, result.OrderID, row); err != nil {
			return err
		}
		if err := emitOfferEvent(emit, row); err != nil {
			return err
		}
		return emitOrderCreated(ctx, q, emit, ref.SellerID, result.OrderID)
	})
	return result, err
}

func createOrder(ctx context.Context, q *dbgen.Queries, orderID uuid.UUID, row dbgen.Offer) error {
	doc, err := offers.Render(row)
	if err != nil {
		return err
	}
	seller, err := q.GetSeller(ctx, row.SellerID)
	if err != nil {
		return err
	}
	info, err := orders.SellerInfo(seller)
	if err != nil {
		return err
	}
	created, err := orders.FromOffer(orderID, row, doc, info)
	if err != nil {
		return err
	}
	if _, err := q.CreateOrder(ctx, created.Order); err != nil {
		return err
	}
	_, err = q.CreateOrderAssets(ctx, created.Assets)
	return err
}

func emitOrderCreated(ctx context.Context, q *dbgen.Queries, emit emitFunc, sellerID, orderID uuid.UUID) error {
	stored, err := orders.Load(ctx, q, sellerID, orderID)
	if err != nil {
		return err
	}
	return emitOrder(emit, stored, webhook.OrderCreated, order.Created)
}

// Edit voids an offer in favour of the one its draft describes, stored in
// the same transaction (so the new offer may keep the old one's reference);
// event offer.voided.
func (a *Offers) Edit(ctx context.Context, in offer.EditInput) error {
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, func(q *dbgen.Queries, emit emitFunc) error {
		row, already, err := moveOffer(ctx, q, offer.TransitionInput{
			OfferID: in.OfferID, SellerID: in.SellerID, From: offer.Created, To: offer.Voided, SupersededBy: &in.Draft.ID,
		})
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
		return emitOfferEvent(emit, row)
	})
}

// StartOffer starts the workflow of an offer whose row exists (the one an
// edit created); a running workflow counts as started.
func (a *Offers) StartOffer(ctx context.Context, in offer.StartOfferInput) error {
	row, err := a.Store.GetOffer(ctx, dbgen.GetOfferParams{SellerID: in.SellerID, ID: in.OfferID})
	if err != nil {
		return err
	}
	return a.startOnce(ctx, offers.StartOptions(row.ID, row.SellerID, row.SellerOfferReference), offer.Offer, offer.Input{
		OfferID: in.OfferID, SellerID: in.SellerID, Review: in.Review, Revision: offer.Revision,
		State: &offer.State{Status: offer.Created, ExpiresAt: in.ExpiresAt},
	})
}

// StartOrder starts the workflow of an order whose rows exist; a running
// workflow counts as started.
func (a *Offers) StartOrder(ctx context.Context, in offer.StartOrderInput) error {
	row, err := a.Store.GetOrder(ctx, dbgen.GetOrderParams{SellerID: in.SellerID, ID: in.OrderID})
	if err != nil {
		return err
	}
	return a.startOnce(ctx, client.StartWorkflowOptions{
		ID:                       order.WorkflowID(in.OrderID),
		TaskQueue:                order.TaskQueue,
		WorkflowIDConflictPolicy: enums.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		WorkflowIDReusePolicy:    enums.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			searchattr.SellerID.ValueSet(in.SellerID.String()),
			searchattr.Status.ValueSet(string(order.Created)),
			searchattr.SellerOfferReference.ValueSet(row.SellerOfferReference),
		),
	}, order.Order, order.Input{OrderID: in.OrderID, SellerID: in.SellerID, State: order.State{Status: order.Created}})
}

// startOnce starts a workflow whose options refuse a second run: one that
// runs or ran already counts as started, so a retried activity is harmless.
func (a *Offers) startOnce(ctx context.Context, opts client.StartWorkflowOptions, wf any, input any) error {
	_, err := a.Temporal.ExecuteWorkflow(ctx, opts, wf, input)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}

// ReviewRisk applies the production risk rules to an offer.
func (a *Offers) ReviewRisk(ctx context.Context, ref offer.Ref) (offer.ReviewResult, error) {
	doc, err := offers.Load(ctx, a.Store.Queries, ref.SellerID, ref.OfferID)
	if err != nil {
		return offer.ReviewResult{}, err
	}
	return a.Risk.Review(doc), nil
}

// moveOffer changes an offer's status only from the expected one. It
// reports already=true when the offer is in the target status (a retried
// activity whose first run committed) and refuses any other status.
func moveOffer(ctx context.Context, q *dbgen.Queries, in offer.TransitionInput) (dbgen.Offer, bool, error) {
	row, err := q.SetOfferStatus(ctx, dbgen.SetOfferStatusParams{
		SellerID: in.SellerID, ID: in.OfferID, FromStatus: string(in.From), ToStatus: string(in.To), SupersededByID: in.SupersededBy,
	})
	if !db.IsNotFound(err) {
		return row, false, err
	}
	current, err := q.GetOffer(ctx, dbgen.GetOfferParams{SellerID: in.SellerID, ID: in.OfferID})
	if err != nil {
		return current, false, err
	}
	if offer.Status(current.Status) == in.To {
		return current, true, nil
	}
	return current, false, temporal.NewNonRetryableApplicationError(
		fmt.Sprintf("offer %s is %s, not %s", in.OfferID, current.Status, in.From), "OfferStatusMismatch", nil)
}

// emitOfferEvent records the event announcing the offer's status, with the
// offer as GET returns it after the change.
func emitOfferEvent(emit emitFunc, row dbgen.Offer) error {
	eventType, ok := offerEvents[offer.Status(row.Status)]
	if !ok {
		return nil
	}
	view, err := offers.Render(row)
	if err != nil {
		return err
	}
	return emitView(emit, webhook.NewEvent{
		ID:       webhook.EventID(offer.WorkflowID(row.ID) + "/" + row.Status),
		SellerID: row.SellerID,
		Type:     eventType,
		ObjectID: row.ID,
	}, view)
}
