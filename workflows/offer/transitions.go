package offer

import (
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// The triggers of an offer's transitions. An update's name is its
// trigger's: the API and the simulations send it, the workflow's handler
// and log lines use it, and the row of Transitions declares what it does.
var (
	// Create stores the offer (Update-With-Start of POST /v1/offers).
	Create = statemachine.Trigger{Name: "create", Update: "create", Verb: "created"}
	// CustomerChange is a change the end customer makes to an open offer
	// (choices, their data, the shipping address): the status stays.
	CustomerChange = statemachine.Trigger{Name: "customer_change", Update: "customer_change", Verb: "changed by the customer"}
	// SubmitForReview is the customer's checkout: the customer's accept,
	// or the sandbox's mark_offer_for_review.
	SubmitForReview = statemachine.Trigger{Name: "submit_for_review", Update: "submit_for_review", Verb: "submitted for review"}
	// Accept is the review's acceptance (mark_offer_accepted, an operator).
	Accept = statemachine.Trigger{Name: "accept", Update: "accept", Verb: "accepted"}
	// Decline is the review's refusal (mark_offer_declined, an operator).
	Decline = statemachine.Trigger{Name: "decline", Update: "decline", Verb: "declined"}
	// Void is POST /v1/offers/{id}/void (mark_offer_voided).
	Void = statemachine.Trigger{Name: "void", Update: "void", Verb: "voided"}
	// Edit is PUT /v1/offers/{id}: the offer is voided for a new one.
	Edit = statemachine.Trigger{Name: "edit", Update: "edit", Verb: "edited", Refusal: refusal.AlreadyCheckedOut}
	// Expiry is the timer on expires_at.
	Expiry = statemachine.Trigger{Name: "expiry"}
	// RulesAccept and RulesDecline are the production risk rules' verdicts.
	RulesAccept  = statemachine.Trigger{Name: "risk rules accept"}
	RulesDecline = statemachine.Trigger{Name: "risk rules decline"}
	// ReviewDeadline is the timer on an operator's decision.
	ReviewDeadline = statemachine.Trigger{Name: "manual review deadline"}
)

// Transitions is the offer's state machine: the spec's table, with
// Tenure's choices where the spec is silent (docs/decisions/): voiding from
// created or pending_review, editing from created
// (0043-edit-in-one-transaction.md), only created offers expire
// (0047-expiry-durable-timer.md), the production review
// (0049-production-review.md), the customer's changes of an open offer
// (0177-customer-changes-are-updates.md).
var Transitions = statemachine.Table[offers.Status]{Noun: "offers", Rows: []statemachine.Transition[offers.Status]{
	{From: "", Trigger: Create, To: offers.Created},
	{From: offers.Created, Trigger: CustomerChange, To: offers.Created},
	{From: offers.Created, Trigger: SubmitForReview, To: offers.PendingReview, Event: webhook.OfferPendingReview},
	{From: offers.Created, Trigger: Void, To: offers.Voided, Event: webhook.OfferVoided},
	{From: offers.Created, Trigger: Edit, To: offers.Voided, Event: webhook.OfferVoided},
	{From: offers.Created, Trigger: Expiry, To: offers.Expired, Event: webhook.OfferExpired},
	{From: offers.PendingReview, Trigger: Accept, To: offers.Accepted, Event: webhook.OfferAccepted},
	{From: offers.PendingReview, Trigger: Decline, To: offers.Declined, Event: webhook.OfferDeclined},
	{From: offers.PendingReview, Trigger: Void, To: offers.Voided, Event: webhook.OfferVoided},
	{From: offers.PendingReview, Trigger: RulesAccept, To: offers.Accepted, Event: webhook.OfferAccepted},
	{From: offers.PendingReview, Trigger: RulesDecline, To: offers.Declined, Event: webhook.OfferDeclined},
	{From: offers.PendingReview, Trigger: ReviewDeadline, To: offers.Declined, Event: webhook.OfferDeclined},
}}

// Final reports whether an offer's status is its last: accepted, declined,
// voided or expired.
func Final(s offers.Status) bool { return Transitions.Final(s) }

// Active reports whether an offer holds its seller_offer_reference, which
// a new offer may then not reuse: until it ends, and after it ended
// accepted, since its order carries the reference.
func Active(s offers.Status) bool { return !Final(s) || s == Transitions.Target(Accept) }
