package services

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/offers"
)

// The audit log's actions of four-eyes: a first approval, and the second
// operator's confirmation, which accepts the offer. Below the amount an
// acceptance is "offer.accept" as before.
const (
	ActionApprove = "offer.approve"
	ActionConfirm = "offer.confirm"
)

// Approval is an operator's first approval of an offer, which awaits a
// second operator's confirmation.
type Approval struct {
	// By is the approving operator; nil when the account is gone.
	By    *uuid.UUID
	Email string
	At    time.Time
}

// ErrOwnApproval refuses an operator confirming their own first
// approval: four-eyes needs another operator.
var ErrOwnApproval = errors.New("the first approval is your own: another operator must confirm it")

// NeedsSecondApproval says whether accepting an offer takes two
// operators: its net purchase price (what it finances, the risk rules'
// offer.total_net) is above FourEyesAbove, and four-eyes is on.
func (c *Console) NeedsSecondApproval(o offers.Stored) bool {
	return c.FourEyesAbove > 0 && o.Document.Pricing != nil && o.Document.Pricing.InsteadOf.Net > c.FourEyesAbove
}

// fourEyes decides what an operator's acceptance of an offer is: below
// the amount (or an offer no longer under review, which the workflow
// refuses as ever) a plain acceptance; above it the first approval, which
// it records and audits here (ActionApprove), or the confirmation of
// another operator's first approval (ActionConfirm, whose detail names the
// first approver), and a refusal, audited, of one's own. It answers the
// action and the detail Decide writes when it sends the acceptance.
func (c *Console) fourEyes(ctx context.Context, who console.Actor, o offers.Stored, detail string) (string, string, error) {
	if !c.NeedsSecondApproval(o) || o.Row.Status != string(offers.PendingReview) {
		return "offer.accept", detail, nil
	}
	target := OfferTarget(o.Row.ID)
	first, err := c.Offers.Store.ApproveOfferFirst(ctx, dbgen.ApproveOfferFirstParams{
		OfferID: o.Row.ID, ApprovedBy: &who.User.ID, ApprovedEmail: who.User.Email,
		TotalNet: o.Document.Pricing.InsteadOf.Net, Currency: o.Document.Currency(),
	})
	if err != nil {
		return ActionApprove, detail, err
	}
	if first == 1 {
		return ActionApprove, detail, c.Accounts.Audit(ctx, who.Entry(ActionApprove, target, detail, console.Succeeded))
	}
	approval, err := c.approval(ctx, o.Row.ID)
	if err == nil && approval == nil {
		// Approvals are never removed: a row that refused ours is there.
		err = errors.New("the offer's first approval vanished")
	}
	if err != nil {
		return ActionConfirm, detail, err
	}
	if approval.By != nil && *approval.By == who.User.ID {
		return ActionConfirm, detail, errors.Join(ErrOwnApproval,
			c.Accounts.Audit(ctx, who.Entry(ActionConfirm, target, ErrOwnApproval.Error(), console.Refused)))
	}
	return ActionConfirm, approval.Email, nil
}

// approval is an offer's first approval; nil when it has none.
func (c *Console) approval(ctx context.Context, offerID uuid.UUID) (*Approval, error) {
	row, err := c.Offers.Store.GetOfferApproval(ctx, offerID)
	if db.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &Approval{By: row.ApprovedBy, Email: row.ApprovedEmail, At: row.ApprovedAt}, nil
}
