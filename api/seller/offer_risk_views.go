package seller

import (
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/offers"
)

// riskDecisionView is why the review declined an offer or left it to an
// operator, for the seller: the risk rules' decision the offer's document
// keeps (written in the transaction that logged it), its reason in the
// language the customer checked out in. An offer the rules accepted, or
// that no review decided yet, has none; so has a declined offer without a
// decision in production (declined before decisions were logged). In the
// sandbox no rules run: an offer declined there (mark_offer_declined)
// shows offers.SimulatedDecline.
func riskDecisionView(o offers.Stored, review offers.Review) *sellerapi.OfferRiskDecision {
	status := offers.Status(o.Row.Status)
	if status != offers.Declined && status != offers.PendingReview {
		return nil
	}
	var outcome offers.Decision
	var reason offers.RiskReason
	switch r := o.Document.RiskReview; {
	case r != nil && r.Outcome != offers.DecisionAccept:
		outcome, reason = r.Outcome, r.Reason
	case r == nil && status == offers.Declined && review == offers.ReviewBySimulation:
		outcome, reason = offers.DecisionDecline, offers.SimulatedDecline
	default:
		return nil
	}
	language := ""
	if c := o.Document.EndCustomer(); c != nil {
		language = c.Language
	}
	text, language := reason.In(language)
	return &sellerapi.OfferRiskDecision{
		Outcome:  sellerapi.OfferRiskDecisionOutcome(outcome),
		Language: sellerapi.OfferRiskDecisionLanguage(language),
		Reasons:  []sellerapi.OfferRiskReason{{Code: reason.Code, Text: text}},
	}
}
