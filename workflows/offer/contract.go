// Package offer is the entity workflow of one offer: from creation until it
// is accepted, declined, voided or expired, every status change of the offer
// happens here, through Updates whose validators enforce the transition
// table before anything is recorded.
package offer

import (
	"fmt"
	"time"

	"github.com/google/uuid"
)

// TaskQueue is the queue offer workflows and their activities run on.
const TaskQueue = "offers"

// WorkflowID names the workflow of one offer.
func WorkflowID(offerID uuid.UUID) string { return "offer/" + offerID.String() }

// Review says how an offer in pending_review gets its decision.
type Review string

const (
	// ReviewBySimulation waits for the sandbox's scenario simulations.
	ReviewBySimulation Review = "simulation"
	// ReviewByRules runs the production risk rules, then waits for an
	// operator when they cannot decide.
	ReviewByRules Review = "rules"
)

// Input starts an offer workflow. State is set when the offer exists
// before its workflow (continuing as new, an edit's superseding offer).
type Input struct {
	OfferID  uuid.UUID
	SellerID uuid.UUID
	Review   Review
	State    *State
	// Revision is the revision of this workflow's code the run started
	// under: the changes since are made only in runs of their revision,
	// so older runs replay as they ran.
	Revision int
}

// Revision is the workflow code's current revision. Like
// workflow.GetVersion, but carried by the input, so a run does not pay a
// marker and a search attribute update for it.
//
//	1: the creation window's timer is started only when no creation
//	   update came with the start; a deadline's timer is cancelled when
//	   the status changes first.
const Revision = 1

// State is what the workflow knows between events; it survives
// continue-as-new.
type State struct {
	Status    Status
	ExpiresAt time.Time
	// Reviewed is set once the risk rules ran, so they run once.
	Reviewed bool
	// DecideBy is when an undecided manual review is declined.
	DecideBy time.Time
}

// Update names. Each is also the verb of the spec's refusal texts.
const (
	CreateUpdate          = "create"
	SubmitForReviewUpdate = "submit_for_review"
	AcceptUpdate          = "accept"
	DeclineUpdate         = "decline"
	VoidUpdate            = "void"
	EditUpdate            = "edit"
)

// CreateRequest creates the offer the workflow stands for.
type CreateRequest struct {
	Draft Draft
}

// VoidRequest voids the offer, naming the offer that supersedes it if any.
type VoidRequest struct {
	SupersededBy *uuid.UUID
}

// EditRequest replaces the offer by a new one built from a full payload.
type EditRequest struct {
	Draft Draft
}

// EditResult names the superseding offer.
type EditResult struct {
	OfferID uuid.UUID
}

// AcceptResult names the order the accepted offer became.
type AcceptResult struct {
	OrderID uuid.UUID
}

// Result is how the workflow ended.
type Result struct {
	Status Status
	// OrderID is set when the offer was accepted.
	OrderID uuid.UUID
}

// Errors the updates refuse with, as Temporal application error types.
const (
	// ErrStatus refuses an update the offer's status does not allow.
	ErrStatus = "OfferStatus"
	// ErrAlreadyCheckedOut refuses to edit an offer that left `created`.
	ErrAlreadyCheckedOut = "AlreadyCheckedOut"
)

// Refusal is the text of the spec for an update the status forbids, such
// as "offers with status=created cannot be declined".
func Refusal(status Status, update string) string {
	verbs := map[string]string{
		SubmitForReviewUpdate: "submitted for review",
		AcceptUpdate:          "accepted",
		DeclineUpdate:         "declined",
		VoidUpdate:            "voided",
		EditUpdate:            "edited",
	}
	return fmt.Sprintf("offers with status=%s cannot be %s", status, verbs[update])
}

// Activity names, registered by the worker with these exact names.
const (
	// CreateActivity stores a new offer (status created).
	CreateActivity = "offer.Create"
	// TransitionActivity moves the offer between statuses and records the event.
	TransitionActivity = "offer.Transition"
	// AcceptActivity accepts the offer and creates its order in one transaction.
	AcceptActivity = "offer.Accept"
	// EditActivity voids the offer and stores its superseding offer in one transaction.
	EditActivity = "offer.Edit"
	// StartOfferActivity starts the workflow of a superseding offer.
	StartOfferActivity = "offer.StartOffer"
	// StartOrderActivity starts the workflow of the order an offer became.
	StartOrderActivity = "offer.StartOrder"
	// ReviewRiskActivity applies the production risk rules.
	ReviewRiskActivity = "offer.ReviewRisk"
)

// TransitionInput asks for one status change and its event.
type TransitionInput struct {
	OfferID      uuid.UUID
	SellerID     uuid.UUID
	From         Status
	To           Status
	SupersededBy *uuid.UUID
}

// EditInput asks to void an offer in favour of a new one.
type EditInput struct {
	OfferID  uuid.UUID
	SellerID uuid.UUID
	Draft    Draft
}

// StartOfferInput starts the workflow of an offer whose row exists.
type StartOfferInput struct {
	OfferID   uuid.UUID
	SellerID  uuid.UUID
	Review    Review
	ExpiresAt time.Time
}

// StartOrderInput starts the workflow of an order whose rows exist.
type StartOrderInput struct {
	OrderID  uuid.UUID
	SellerID uuid.UUID
}

// Ref names an offer to an activity that needs nothing else.
type Ref struct {
	OfferID  uuid.UUID
	SellerID uuid.UUID
}

// Decision is the outcome of the risk rules.
type Decision string

const (
	// DecisionAccept accepts the offer.
	DecisionAccept Decision = "accept"
	// DecisionDecline declines the offer.
	DecisionDecline Decision = "decline"
	// DecisionManual leaves the offer to an operator.
	DecisionManual Decision = "manual"
)

// ReviewResult is the risk rules' decision and why.
type ReviewResult struct {
	Decision Decision
	Reason   string
	// ManualDeadline is how long an operator has to decide.
	ManualDeadline time.Duration
}
