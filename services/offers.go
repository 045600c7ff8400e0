// Package services is the API's only door into the workflows and storage,
// and what the operator's command line and the sandbox seeding ask of
// offers and orders. A service starts and updates workflows and waits
// until a change is persisted, or reads and writes PostgreSQL through the
// domain packages, and answers in domain types; rendering them is the
// API's. New builds every service of a deployment.
package services

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// Offers creates and changes offers through their workflows and reads
// them from PostgreSQL. Every change returns once the workflow persisted
// it, so a read right after sees it.
type Offers struct {
	Store    *db.Store
	Temporal client.Client
	Builder  *offers.Builder
	// Review is how offers under review are decided in this environment.
	Review offers.Review
}

// NewOffers is the offer service of a configuration.
func NewOffers(cfg *config.Config, store *db.Store, temporal client.Client, engine *pricing.Engine) *Offers {
	return &Offers{
		Store:    store,
		Temporal: temporal,
		Builder: &offers.Builder{
			Store: store, Engine: engine, Links: links.NewSigner(cfg.Links.SigningKey), PublicURL: cfg.HTTP.PublicURL,
			URLs: cfg.FollowedURLs(), Now: time.Now,
		},
		Review: offers.ReviewOf(cfg.Environment),
	}
}

// ErrOfferNotFound is an offer that does not exist for the seller.
var ErrOfferNotFound = errors.New("offer not found")

// Create builds an offer and starts its workflow with the creation update
// (Update-With-Start), returning the stored offer.
func (s *Offers) Create(ctx context.Context, sellerID uuid.UUID, r offers.Request, o offers.Options) (offers.Stored, error) {
	if idempotency.Resumed(ctx) {
		// The request's first attempt may have created the offer already.
		if created, err := s.Get(ctx, sellerID, idempotency.NewID(ctx)); !errors.Is(err, ErrOfferNotFound) {
			return created, err
		}
	}
	draft, err := s.Builder.Build(ctx, sellerID, r, o)
	if err != nil {
		return offers.Stored{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, entity.UpdateTimeout)
	defer cancel()
	start := s.Temporal.NewWithStartWorkflowOperation(offer.StartOptions(draft.ID, sellerID, draft.SellerOfferReference),
		offer.Offer, offer.Input{OfferID: draft.ID, SellerID: sellerID, Review: s.Review, Revision: offer.Revision})
	h, err := s.Temporal.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: start,
		UpdateOptions: client.UpdateWorkflowOptions{
			UpdateName:   offer.Create.Update,
			UpdateID:     idempotency.UpdateID(ctx),
			Args:         []any{offer.CreateRequest{Draft: draft}},
			WaitForStage: client.WorkflowUpdateStageCompleted,
		},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if entity.RanBefore(err) {
		// Only a request resuming one whose process died finds its
		// offer's workflow ended: had the workflow recorded a refusal of
		// the creation, Temporal would have answered it for the update
		// id; it ended without creating the offer.
		return offers.Stored{}, offer.CreationFailed()
	}
	if err != nil {
		return offers.Stored{}, s.explain(ctx, sellerID, draft.ID, offer.Create, err)
	}
	return s.Get(ctx, sellerID, draft.ID)
}

// Validate builds an offer without creating it and returns its pricing.
func (s *Offers) Validate(ctx context.Context, sellerID uuid.UUID, r offers.Request) (offers.Pricing, error) {
	draft, err := s.Builder.Build(ctx, sellerID, r, offers.Options{})
	if err != nil {
		return offers.Pricing{}, err
	}
	return *draft.Document.Pricing, nil
}

// Edit replaces an offer in `created` by a new one built from a full
// request: the old one is voided with superseded_by_id naming the new one,
// which it returns.
func (s *Offers) Edit(ctx context.Context, sellerID, offerID uuid.UUID, r offers.Request) (offers.Stored, error) {
	row, err := s.row(ctx, sellerID, offerID)
	if err != nil {
		return offers.Stored{}, err
	}
	if !offer.Transitions.Allows(offers.Status(row.Status), offer.Edit.Update) {
		return offers.Stored{}, offer.Transitions.Refusal(offers.Status(row.Status), offer.Edit.Update)
	}
	draft, err := s.Builder.Build(ctx, sellerID, r, offers.Options{Partner: row.Partner, Replaces: &offerID})
	if err != nil {
		return offers.Stored{}, err
	}
	var result offer.EditResult
	err = entity.Update(ctx, s.Temporal, offer.WorkflowID(offerID), offer.Edit.Update, &result, offer.EditRequest{Draft: draft})
	if err != nil {
		return offers.Stored{}, s.explain(ctx, sellerID, offerID, offer.Edit, err)
	}
	return s.Get(ctx, sellerID, result.OfferID)
}

// Void voids an offer, optionally naming the seller's offer that
// supersedes it (which must exist and differ).
func (s *Offers) Void(ctx context.Context, sellerID, offerID uuid.UUID, supersededBy *uuid.UUID) (offers.Stored, error) {
	if _, err := s.row(ctx, sellerID, offerID); err != nil {
		return offers.Stored{}, err
	}
	if supersededBy != nil {
		if *supersededBy == offerID {
			return offers.Stored{}, refusal.New(refusal.InvalidSuperseding, "superseded_by_id must name another offer than the one voided")
		}
		if _, err := s.row(ctx, sellerID, *supersededBy); errors.Is(err, ErrOfferNotFound) {
			return offers.Stored{}, refusal.New(refusal.InvalidSuperseding, "superseded_by_id %s is not an offer of the seller", supersededBy)
		} else if err != nil {
			return offers.Stored{}, err
		}
	}
	if err := s.Change(ctx, sellerID, offerID, offer.Void, offer.VoidRequest{SupersededBy: supersededBy}); err != nil {
		return offers.Stored{}, err
	}
	return s.Get(ctx, sellerID, offerID)
}

// SubmitForReview submits an open offer for review, as its customer's
// checkout does.
func (s *Offers) SubmitForReview(ctx context.Context, sellerID, offerID uuid.UUID) error {
	return s.Change(ctx, sellerID, offerID, offer.SubmitForReview)
}

// Accept accepts an offer under review, as a positive risk decision does.
func (s *Offers) Accept(ctx context.Context, sellerID, offerID uuid.UUID) error {
	return s.Change(ctx, sellerID, offerID, offer.Accept)
}

// Decline declines an offer under review, as a negative risk decision
// does.
func (s *Offers) Decline(ctx context.Context, sellerID, offerID uuid.UUID) error {
	return s.Change(ctx, sellerID, offerID, offer.Decline)
}

// Change sends the update of a trigger of the offer's table (submit for
// review, accept, decline, void) and waits until it is persisted.
func (s *Offers) Change(ctx context.Context, sellerID, offerID uuid.UUID, t statemachine.Trigger, args ...any) error {
	if _, err := s.row(ctx, sellerID, offerID); err != nil {
		return err
	}
	err := entity.Update(ctx, s.Temporal, offer.WorkflowID(offerID), t.Update, nil, args...)
	return s.explain(ctx, sellerID, offerID, t, err)
}

// Get reads one offer of a seller.
func (s *Offers) Get(ctx context.Context, sellerID, offerID uuid.UUID) (offers.Stored, error) {
	o, err := offers.Load(ctx, s.Store.Queries, sellerID, offerID)
	if db.IsNotFound(err) {
		return o, ErrOfferNotFound
	}
	return o, err
}

// GetByReference reads the seller's newest offer with a reference.
func (s *Offers) GetByReference(ctx context.Context, sellerID uuid.UUID, reference string) (offers.Stored, error) {
	row, err := s.Store.GetOfferByReference(ctx, dbgen.GetOfferByReferenceParams{SellerID: sellerID, SellerOfferReference: reference})
	if db.IsNotFound(err) {
		return offers.Stored{}, ErrOfferNotFound
	}
	if err != nil {
		return offers.Stored{}, err
	}
	return offers.Decode(row)
}

func (s *Offers) row(ctx context.Context, sellerID, offerID uuid.UUID) (dbgen.Offer, error) {
	row, err := s.Store.GetOffer(ctx, dbgen.GetOfferParams{SellerID: sellerID, ID: offerID})
	if db.IsNotFound(err) {
		return row, ErrOfferNotFound
	}
	return row, err
}

// explain turns what Temporal answered into the service's errors (see
// explainUpdate): an ended workflow is a final offer, or one never created.
func (s *Offers) explain(ctx context.Context, sellerID, offerID uuid.UUID, t statemachine.Trigger, err error) error {
	return explainUpdate(ctx, err, offer.Transitions, t.Update, func(ctx context.Context) (offers.Status, error) {
		row, err := s.row(ctx, sellerID, offerID)
		return offers.Status(row.Status), err
	})
}
