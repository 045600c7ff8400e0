package services

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/console"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/workflows/offer"
)

// Console is what the console at /console/ asks of Tenure: its accounts
// and sessions, the review queue, and the operators' decisions on it,
// which are the same workflow updates as `tenure offers decide` sends,
// each written to the audit log.
type Console struct {
	Accounts *console.Accounts
	Offers   *Offers
	// Orders, Contracts and Catalog serve the merchant portal; Orders,
	// Contracts, Invoices and Collections the operators' record and money
	// pages (console_records.go, console_money.go).
	Orders      *Orders
	Contracts   *Contracts
	Catalog     *Catalog
	Invoices    *Invoices
	Collections *Collections
	// Webhooks and CatalogImports are the Seller API's, for the portal's
	// webhooks and catalog uploads and the operators' webhooks health.
	Webhooks       *Webhooks
	CatalogImports *CatalogImports
	// Sellers and ConsoleURL serve the merchant portal's users and
	// credentials (console_portal_users.go): invitation links are made
	// at the console's origin, where its passkeys work.
	Sellers    *Sellers
	ConsoleURL string
	// OperatorSellers serve the operators' sellers pages.
	OperatorSellers *ConsoleSellers
	// FourEyesAbove is the net purchase price (cents) above which an
	// acceptance waits for a second operator; 0 is off.
	FourEyesAbove int64
}

// NewConsole is the console's service of a configuration, working through
// the deployment's other services; nil when console.totp_keys is not
// configured, and the console is not served.
func NewConsole(cfg *config.Config, store *db.Store, all *Services) (*Console, error) {
	if !cfg.Console.Enabled() {
		return nil, nil
	}
	ring, err := cfg.Console.TOTPRing()
	if err != nil {
		return nil, fmt.Errorf("console.totp_keys: %w", err)
	}
	rp, err := console.NewRelyingParty(cfg.ConsoleOrigin())
	if err != nil {
		return nil, fmt.Errorf("console.public_origin: %w", err)
	}
	accounts := &console.Accounts{Store: store, TOTPKeys: ring, RelyingParty: rp, IdleTimeout: cfg.Console.IdleTimeout,
		AbsoluteTimeout: cfg.Console.AbsoluteTimeout, InvitationTTL: cfg.Console.InvitationTTL, Now: time.Now}
	return &Console{
		Accounts: accounts,
		Offers:   all.Offers, Orders: all.Orders, Contracts: all.Contracts, Catalog: all.Catalog,
		Invoices: all.Invoices, Collections: all.Collections,
		Webhooks: all.Webhooks, CatalogImports: all.CatalogImports,
		Sellers: all.Sellers, ConsoleURL: cfg.ConsoleOrigin(),
		OperatorSellers: newConsoleSellers(cfg, store, accounts), FourEyesAbove: cfg.Console.FourEyesAboveCents,
	}, nil
}

// ReviewItem is an offer as an operator reviews it: the offer, its
// document with the risk rules' decision, the seller's name, the first
// approval of an offer awaiting a second operator, and the customer's
// open exposure.
type ReviewItem struct {
	Offer      offers.Stored
	SellerName string
	Approval   *Approval
	Exposure   Exposure
}

// ReviewPageSize is how many offers a page of the review queue shows.
const ReviewPageSize = 50

// ReviewQueue is a page of the offers waiting for an operator, oldest
// first, after the offer (afterAt, afterID); the zero values start at the
// oldest.
func (c *Console) ReviewQueue(ctx context.Context, afterAt time.Time, afterID uuid.UUID) ([]ReviewItem, error) {
	rows, err := c.Offers.Store.ListOffersInReview(ctx, dbgen.ListOffersInReviewParams{
		AfterAt: afterAt, AfterID: afterID, PageSize: ReviewPageSize,
	})
	if err != nil {
		return nil, err
	}
	out := make([]ReviewItem, 0, len(rows))
	for _, r := range rows {
		stored, err := offers.Decode(r.Offer)
		if err != nil {
			return nil, err
		}
		item := ReviewItem{Offer: stored, SellerName: r.SellerName}
		if r.ApprovedEmail != nil {
			item.Approval = &Approval{By: r.ApprovedBy, Email: *r.ApprovedEmail, At: *r.ApprovedAt}
		}
		out = append(out, item)
	}
	if err := c.withExposure(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Offer is any offer by its id, for an operator.
func (c *Console) Offer(ctx context.Context, offerID uuid.UUID) (ReviewItem, error) {
	row, err := c.Offers.Store.GetOfferForOperator(ctx, offerID)
	if db.IsNotFound(err) {
		return ReviewItem{}, ErrOfferNotFound
	}
	if err != nil {
		return ReviewItem{}, err
	}
	stored, err := offers.Decode(row)
	if err != nil {
		return ReviewItem{}, err
	}
	sellerName, err := c.SellerName(ctx, row.SellerID)
	if err != nil {
		return ReviewItem{}, err
	}
	approval, err := c.approval(ctx, offerID)
	if err != nil {
		return ReviewItem{}, err
	}
	items := []ReviewItem{{Offer: stored, SellerName: sellerName, Approval: approval}}
	if err := c.withExposure(ctx, items); err != nil {
		return ReviewItem{}, err
	}
	return items[0], nil
}

// OfferTarget names an offer as the audit log's target.
func OfferTarget(offerID uuid.UUID) string { return "offer " + offerID.String() }

// OfferDecisions are the operators' decisions on an offer as the audit
// log has them, oldest first, refused ones too.
func (c *Console) OfferDecisions(ctx context.Context, offerID uuid.UUID) ([]console.Entry, error) {
	return c.Accounts.AuditOf(ctx, OfferTarget(offerID))
}

// ErrReasonRequired refuses a decline without a reason: the next
// operator, and the audit, need to know why.
var ErrReasonRequired = errors.New("give the reason for declining the offer")

// maxReasonLength bounds a decline's reason.
const maxReasonLength = 1000

// ErrReasonTooLong refuses a reason longer than maxReasonLength.
var ErrReasonTooLong = fmt.Errorf("the reason may have at most %d characters", maxReasonLength)

// Decide accepts or declines an offer under review for an operator,
// through the offer's workflow as `tenure offers decide` does, and writes
// the action and how it ended to the audit log. Above FourEyesAbove an
// acceptance is a first approval until another operator confirms it
// (fourEyes). It answers the action taken, as the audit log names it.
func (c *Console) Decide(ctx context.Context, who console.Actor, offerID uuid.UUID, accept bool, reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	action, trigger := "offer.accept", offer.Accept
	if !accept {
		action, trigger = "offer.decline", offer.Decline
		switch {
		case reason == "":
			return action, ErrReasonRequired
		case len([]rune(reason)) > maxReasonLength:
			return action, ErrReasonTooLong
		}
	}
	row, err := c.Offers.Store.GetOfferForOperator(ctx, offerID)
	if db.IsNotFound(err) {
		return action, ErrOfferNotFound
	}
	if err != nil {
		return action, err
	}
	if accept {
		stored, err := offers.Decode(row)
		if err != nil {
			return action, err
		}
		if action, reason, err = c.fourEyes(ctx, who, stored, reason); err != nil || action == ActionApprove {
			return action, err
		}
	}
	err = c.Offers.Change(ctx, row.SellerID, offerID, trigger)
	var refused *refusal.Error
	outcome := console.Succeeded
	switch {
	case errors.As(err, &refused):
		outcome = console.Refused
	case err != nil:
		outcome = console.Failed
	}
	if auditErr := c.Accounts.Audit(ctx, who.Entry(action, OfferTarget(offerID), reason, outcome)); auditErr != nil {
		return action, errors.Join(err, auditErr)
	}
	return action, err
}
