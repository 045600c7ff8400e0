// Package offer is the entity workflow of one offer: from creation until it
// is accepted, declined, voided or expired, every status change of the offer
// happens here, through Updates whose validators enforce the transition
// table before anything is recorded.
package offer

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/offers"
)

// TaskQueue is the queue offer workflows and their activities run on.
const TaskQueue = "offers"

// WorkflowID names the workflow of one offer.
func WorkflowID(offerID uuid.UUID) string { return "offer/" + offerID.String() }

// Input starts an offer workflow. State is set when the offer exists
// before its workflow (continuing as new, an edit's superseding offer).
type Input struct {
	OfferID  uuid.UUID
	SellerID uuid.UUID
	Review   offers.Review
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
//	2: the risk rules' decision is made and acted on in one local
//	   activity (Review) under the guard, instead of ReviewRisk followed
//	   by the acceptance or the decline.
const Revision = 2

// State is what the workflow knows between events; it survives
// continue-as-new.
type State struct {
	Status    offers.Status
	ExpiresAt time.Time
	// Reviewed is set once the risk rules ran, so they run once.
	Reviewed bool
	// DecideBy is when an undecided manual review is declined.
	DecideBy time.Time
}

// CreateRequest is the argument of the Create update: the offer the
// workflow stands for.
type CreateRequest struct {
	Draft offers.Draft
}

// CustomerChangeRequest is the argument of the CustomerChange update.
type CustomerChangeRequest struct {
	Change offers.CustomerChange
}

// SubmitRequest is the argument of the SubmitForReview update. Checkout is
// set when the customer accepted (nil for the sandbox's simulation, which
// sends none).
type SubmitRequest struct {
	Checkout *activities.CustomerAcceptance
}

// VoidRequest voids the offer, naming the offer that supersedes it if any.
type VoidRequest struct {
	SupersededBy *uuid.UUID
}

// EditRequest replaces the offer by a new one built from a full payload.
type EditRequest struct {
	Draft offers.Draft
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
	Status offers.Status
	// OrderID is set when the offer was accepted.
	OrderID uuid.UUID
}
