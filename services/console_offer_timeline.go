package services

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/console"
)

// OfferStepKind says what a step of an offer's timeline is.
type OfferStepKind string

// The kinds of an offer's timeline.
const (
	// OfferStepCreated is the offer's creation.
	OfferStepCreated OfferStepKind = "created"
	// OfferStepRisk is the risk rules' decision.
	OfferStepRisk OfferStepKind = "risk"
	// OfferStepEvent is an event the offer's workflow recorded (a status
	// change announced to the seller's webhooks).
	OfferStepEvent OfferStepKind = "event"
	// OfferStepDelivery is one attempt to deliver an event to an endpoint.
	OfferStepDelivery OfferStepKind = "delivery"
	// OfferStepOperator is an operator's action from the audit log.
	OfferStepOperator OfferStepKind = "operator"
	// OfferStepOrder is the order the accepted offer became.
	OfferStepOrder OfferStepKind = "order"
)

// OfferStep is one step of an offer's timeline.
type OfferStep struct {
	At   time.Time
	Kind OfferStepKind
	// What names the step: the event's type, the operator's action, the
	// risk rules' outcome, the order's status.
	What string
	// Detail adds what there is to know: the endpoint's URL and the
	// answer of a delivery, an operator's reason, the rule set.
	Detail string
	// Who is the operator of an operator's step.
	Who string
	// Outcome is an operator's or a delivery's outcome.
	Outcome string
	// OrderID names the order of a OfferStepOrder step.
	OrderID uuid.UUID
}

// OfferTimeline is everything that happened to an offer, in order: its
// creation, the risk rules' decision, every event its workflow recorded
// and every attempt to deliver it, the operators' actions from the audit
// log, and its order. Each source is read by its own index (the events by
// seller and object, the audit log by target).
func (c *Console) OfferTimeline(ctx context.Context, item ReviewItem, decisions []console.Entry) ([]OfferStep, error) {
	o, doc := item.Offer.Row, item.Offer.Document
	steps := []OfferStep{{At: o.CreatedAt, Kind: OfferStepCreated, What: o.SalesChannel}}
	if r := doc.RiskReview; r != nil {
		steps = append(steps, OfferStep{At: r.DecidedAt, Kind: OfferStepRisk, What: string(r.Outcome), Detail: r.RuleSetVersion})
	}
	events, err := c.Offers.Store.ListObjectEvents(ctx, dbgen.ListObjectEventsParams{SellerID: o.SellerID, ObjectID: o.ID})
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		steps = append(steps, OfferStep{At: e.CreatedAt, Kind: OfferStepEvent, What: e.Type})
	}
	attempts, err := c.Offers.Store.ListObjectAttempts(ctx, dbgen.ListObjectAttemptsParams{SellerID: o.SellerID, ObjectID: o.ID})
	if err != nil {
		return nil, err
	}
	for _, a := range attempts {
		answer := a.Outcome
		if a.StatusCode != nil {
			answer = fmt.Sprintf("%s (HTTP %d)", a.Outcome, *a.StatusCode)
		} else if a.ErrorClass != nil {
			answer = fmt.Sprintf("%s (%s)", a.Outcome, *a.ErrorClass)
		}
		steps = append(steps, OfferStep{At: a.StartedAt, Kind: OfferStepDelivery, What: a.Type,
			Detail: fmt.Sprintf("%s, attempt %d", a.Url, a.Attempt), Outcome: answer})
	}
	for _, e := range decisions {
		steps = append(steps, OfferStep{At: e.At, Kind: OfferStepOperator, What: e.Action, Detail: e.Detail, Who: e.ActorEmail, Outcome: string(e.Outcome)})
	}
	order, err := c.Offers.Store.GetOrderByOffer(ctx, dbgen.GetOrderByOfferParams{SellerID: o.SellerID, OfferID: o.ID})
	switch {
	case err == nil:
		steps = append(steps, OfferStep{At: order.CreatedAt, Kind: OfferStepOrder, What: order.Status, OrderID: order.ID})
	case !db.IsNotFound(err):
		return nil, err
	}
	slices.SortStableFunc(steps, func(a, b OfferStep) int { return a.At.Compare(b.At) })
	return steps, nil
}
