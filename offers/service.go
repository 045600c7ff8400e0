package offers

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/idempotency"
	"github.com/tenurehq/tenure/links"
	"github.com/tenurehq/tenure/pricing"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/offer"
)

// Service creates and changes offers through their workflows and reads
// them from PostgreSQL. Every change returns once the workflow persisted
// it, so a read right after sees it.
type Service struct {
	Store    *db.Store
	Temporal client.Client
	Builder  *Builder
	// Review is how offers under review are decided in this environment.
	Review offer.Review
}

// ErrNotFound is an offer that does not exist for the seller.
var ErrNotFound = errors.New("offer not found")

// Create builds an offer and starts its workflow with the creation update
// (Update-With-Start), returning the stored offer.
func (s *Service) Create(ctx context.Context, sellerID uuid.UUID, p sellerapi.OfferCreateRequest, o Options) (sellerapi.Offer, error) {
	if idempotency.Resumed(ctx) {
		// The request's first attempt may have created the offer already.
		if created, err := s.Get(ctx, sellerID, idempotency.NewID(ctx)); !errors.Is(err, ErrNotFound) {
			return created, err
		}
	}
	draft, err := s.Builder.Build(ctx, sellerID, p, o)
	if err != nil {
		return sellerapi.Offer{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, entity.UpdateTimeout)
	defer cancel()
	start := s.Temporal.NewWithStartWorkflowOperation(StartOptions(draft.ID, sellerID, draft.SellerOfferReference),
		offer.Offer, offer.Input{OfferID: draft.ID, SellerID: sellerID, Review: s.Review, Revision: offer.Revision})
	h, err := s.Temporal.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: start,
		UpdateOptions: client.UpdateWorkflowOptions{
			UpdateName:   offer.CreateUpdate,
			UpdateID:     idempotency.UpdateID(ctx),
			Args:         []any{offer.CreateRequest{Draft: draft}},
			WaitForStage: client.WorkflowUpdateStageCompleted,
		},
	})
	if err == nil {
		err = h.Get(ctx, nil)
	}
	if err != nil {
		return sellerapi.Offer{}, s.explain(ctx, sellerID, draft.ID, offer.CreateUpdate, err)
	}
	return s.Get(ctx, sellerID, draft.ID)
}

// Validate builds an offer without creating it and returns its pricing.
func (s *Service) Validate(ctx context.Context, sellerID uuid.UUID, p sellerapi.OfferCreateRequest) (sellerapi.PricingOverview, error) {
	draft, err := s.Builder.Build(ctx, sellerID, p, Options{})
	if err != nil {
		return sellerapi.PricingOverview{}, err
	}
	return *draft.Document.PricingOverview, nil
}

// Edit replaces an offer in `created` by a new one built from a full
// payload: the old one is voided with superseded_by_id naming the new one,
// which it returns.
func (s *Service) Edit(ctx context.Context, sellerID, offerID uuid.UUID, p sellerapi.OfferCreateRequest) (sellerapi.Offer, error) {
	row, err := s.row(ctx, sellerID, offerID)
	if err != nil {
		return sellerapi.Offer{}, err
	}
	if offer.Status(row.Status) != offer.Created {
		return sellerapi.Offer{}, reject(AlreadyCheckedOut, nil, "%s", offer.Refusal(offer.Status(row.Status), offer.EditUpdate))
	}
	draft, err := s.Builder.Build(ctx, sellerID, p, Options{Partner: row.Partner, Replaces: &offerID})
	if err != nil {
		return sellerapi.Offer{}, err
	}
	var result offer.EditResult
	err = entity.Update(ctx, s.Temporal, offer.WorkflowID(offerID), offer.EditUpdate, &result, offer.EditRequest{Draft: draft})
	if err != nil {
		return sellerapi.Offer{}, s.explain(ctx, sellerID, offerID, offer.EditUpdate, err)
	}
	return s.Get(ctx, sellerID, result.OfferID)
}

// Void voids an offer, optionally naming the seller's offer that
// supersedes it (which must exist and differ).
func (s *Service) Void(ctx context.Context, sellerID, offerID uuid.UUID, supersededBy *uuid.UUID) (sellerapi.Offer, error) {
	if _, err := s.row(ctx, sellerID, offerID); err != nil {
		return sellerapi.Offer{}, err
	}
	if supersededBy != nil {
		if *supersededBy == offerID {
			return sellerapi.Offer{}, &entity.StatusRefusal{Message: "superseded_by_id must name another offer than the one voided"}
		}
		if _, err := s.row(ctx, sellerID, *supersededBy); errors.Is(err, ErrNotFound) {
			return sellerapi.Offer{}, &entity.StatusRefusal{Message: "superseded_by_id " + supersededBy.String() + " is not an offer of the seller"}
		} else if err != nil {
			return sellerapi.Offer{}, err
		}
	}
	if err := s.Change(ctx, sellerID, offerID, offer.VoidUpdate, offer.VoidRequest{SupersededBy: supersededBy}); err != nil {
		return sellerapi.Offer{}, err
	}
	return s.Get(ctx, sellerID, offerID)
}

// Change sends one of the offer updates (submit for review, accept,
// decline, void) and waits until it is persisted.
func (s *Service) Change(ctx context.Context, sellerID, offerID uuid.UUID, update string, args ...any) error {
	if _, err := s.row(ctx, sellerID, offerID); err != nil {
		return err
	}
	err := entity.Update(ctx, s.Temporal, offer.WorkflowID(offerID), update, nil, args...)
	return s.explain(ctx, sellerID, offerID, update, err)
}

// Get reads one offer of a seller as the API returns it.
func (s *Service) Get(ctx context.Context, sellerID, offerID uuid.UUID) (sellerapi.Offer, error) {
	o, err := Load(ctx, s.Store.Queries, sellerID, offerID)
	if db.IsNotFound(err) {
		return o, ErrNotFound
	}
	return o, err
}

// GetByReference reads the seller's newest offer with a reference.
func (s *Service) GetByReference(ctx context.Context, sellerID uuid.UUID, reference string) (sellerapi.Offer, error) {
	row, err := s.Store.GetOfferByReference(ctx, dbgen.GetOfferByReferenceParams{SellerID: sellerID, SellerOfferReference: reference})
	if db.IsNotFound(err) {
		return sellerapi.Offer{}, ErrNotFound
	}
	if err != nil {
		return sellerapi.Offer{}, err
	}
	return Render(row)
}

func (s *Service) row(ctx context.Context, sellerID, offerID uuid.UUID) (dbgen.Offer, error) {
	row, err := s.Store.GetOffer(ctx, dbgen.GetOfferParams{SellerID: sellerID, ID: offerID})
	if db.IsNotFound(err) {
		return row, ErrNotFound
	}
	return row, err
}

// explain turns what Temporal answered into the service's errors: the
// workflow's refusals, an ended workflow (the offer is final, or was never
// created), or no answer in time.
func (s *Service) explain(ctx context.Context, sellerID, offerID uuid.UUID, update string, err error) error {
	if err == nil {
		return nil
	}
	if app, ok := entity.Refusal(err); ok {
		switch app.Type() {
		case offer.ErrStatus:
			return &entity.StatusRefusal{Message: app.Message()}
		case offer.ErrAlreadyCheckedOut:
			return reject(AlreadyCheckedOut, nil, "%s", app.Message())
		case DuplicateSellerOfferReference:
			return reject(DuplicateSellerOfferReference, nil, "%s", app.Message())
		}
	}
	if entity.Ended(err) {
		row, rowErr := s.row(context.WithoutCancel(ctx), sellerID, offerID)
		if rowErr != nil {
			return rowErr
		}
		if update == offer.EditUpdate {
			return reject(AlreadyCheckedOut, nil, "%s", offer.Refusal(offer.Status(row.Status), update))
		}
		return &entity.StatusRefusal{Message: offer.Refusal(offer.Status(row.Status), update)}
	}
	if entity.TimedOut(err) {
		return entity.ErrUnavailable
	}
	return err
}

// NewService builds the offer service of a configuration.
func NewService(cfg *config.Config, store *db.Store, temporal client.Client, engine *pricing.Engine) *Service {
	review := offer.ReviewByRules
	if cfg.Environment == config.Sandbox {
		review = offer.ReviewBySimulation
	}
	return &Service{
		Store:    store,
		Temporal: temporal,
		Builder: &Builder{
			Store: store, Engine: engine, Links: links.NewSigner(cfg.Links.SigningKey), PublicURL: cfg.HTTP.PublicURL, Now: time.Now,
		},
		Review: review,
	}
}
