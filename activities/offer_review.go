package activities

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/risk"
)

// OfferReview asks the production risk rules to decide an offer under
// review and to act on the decision in the same transaction: Accept when
// they accept, Decline when they decline, nothing more when they leave the
// offer to an operator. The workflow's table gives both transitions.
type OfferReview struct {
	Accept  OfferAcceptance
	Decline OfferTransition
}

// OfferReviewed is what the risk rules decided and what came of it.
type OfferReviewed struct {
	Outcome offers.Decision
	// ManualDeadline is how long an operator has (outcome manual).
	ManualDeadline time.Duration
	// OrderID is the order an accepted offer became.
	OrderID uuid.UUID
}

// Review decides an offer under review by the risk rules and acts on the
// decision, in two transactions: the first decides (risk.Decide: the
// company's keys locked, the exposure read, the decision logged with its
// snapshot and the reservation) and stores the decision in the offer's
// document; the second accepts (with the order) or declines with its
// event. The company's lock is held only while its exposure is checked
// and reserved, so one company's checkouts wait for each other's
// decisions, not for each other's orders to be written. A retried
// activity finds the logged decision and acts on it once: the offer still
// under review is accepted or declined, one that was is not moved twice.
func (a *Offers) Review(ctx context.Context, in OfferReview) (OfferReviewed, error) {
	decided, err := a.ReviewRisk(ctx, OfferRef{SellerID: in.Decline.SellerID, OfferID: in.Decline.OfferID})
	out := OfferReviewed{Outcome: decided.Decision, ManualDeadline: decided.ManualDeadline}
	if err != nil {
		return out, err
	}
	err = changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		switch out.Outcome {
		case risk.Accept:
			accepted, err := a.accept(ctx, q, fx, in.Accept)
			out.OrderID = accepted.OrderID
			return err
		case risk.Decline:
			return a.transition(ctx, q, fx, in.Decline)
		}
		return nil
	})
	return out, err
}

// ReviewRisk decides an offer under review by the risk rules, logging the
// decision and storing it in the offer's document, and answers it; the
// caller acts on it in a transaction of its own: Review, or the workflows
// started before revision 2, which call it as an activity of its own.
func (a *Offers) ReviewRisk(ctx context.Context, ref OfferRef) (offers.ReviewResult, error) {
	var result offers.ReviewResult
	err := a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		decision, err := a.decide(ctx, q, ref.SellerID, ref.OfferID)
		result = offers.ReviewResult{Decision: decision, ManualDeadline: a.Risk.ManualDeadline}
		return err
	})
	return result, err
}

// decide has the risk rules decide an offer in the transaction q, which
// logs the decision, and stores it in the offer's document; a decision
// already logged is answered as it was.
func (a *Offers) decide(ctx context.Context, q *dbgen.Queries, sellerID, offerID uuid.UUID) (offers.Decision, error) {
	o, err := offers.Load(ctx, q, sellerID, offerID)
	if err != nil {
		return "", err
	}
	logged, already, err := risk.Decide(ctx, q, a.Risk, o)
	if err != nil || already {
		return logged.Decision.Outcome, err
	}
	a.Logger.InfoContext(ctx, "risk decision", "offer", offerID, "outcome", logged.Decision.Outcome, "rule", logged.Decision.RuleID,
		"reason", logged.Decision.Reason.Code, "rule_set", logged.Decision.RuleSetVersion)
	row, err := offers.RiskReviewRow(o, logged.Review())
	if err != nil {
		return "", err
	}
	return logged.Decision.Outcome, q.SetOfferRiskReview(ctx, row)
}
