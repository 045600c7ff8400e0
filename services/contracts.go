package services

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/foundation/weburl"
	"github.com/tenurehq/tenure/workflows/contract"
)

// Contracts changes rental contracts through their workflows and reads
// them from PostgreSQL. Every change returns the contract once the
// workflow persisted it.
type Contracts struct {
	Store    *db.Store
	Temporal client.Client
	// URLs is the rule for the tracking links of returns.
	URLs weburl.Rule
}

// NewContracts is the contract service of a configuration.
func NewContracts(cfg *config.Config, store *db.Store, temporal client.Client) *Contracts {
	return &Contracts{Store: store, Temporal: temporal, URLs: cfg.FollowedURLs()}
}

// ErrContractNotFound is a contract that does not exist for the seller.
var ErrContractNotFound = errors.New("contract not found")

// Get reads a contract of a seller.
func (s *Contracts) Get(ctx context.Context, sellerID, contractID uuid.UUID) (contracts.Stored, error) {
	stored, err := contracts.Load(ctx, s.Store.Queries, sellerID, contractID)
	if db.IsNotFound(err) {
		return stored, ErrContractNotFound
	}
	return stored, err
}

// List returns one page of a seller's contracts and how many match in all.
func (s *Contracts) List(ctx context.Context, sellerID uuid.UUID, f contracts.ListFilter) ([]contracts.Stored, int64, error) {
	return contracts.List(ctx, s.Store.Queries, sellerID, f)
}

// ListNewest returns a page of a seller's contracts, newest first, older
// than the contract (beforeAt, beforeID); a zero beforeAt starts at the
// newest.
func (s *Contracts) ListNewest(ctx context.Context, sellerID uuid.UUID, beforeAt time.Time, beforeID uuid.UUID, limit int64) ([]contracts.Stored, error) {
	return contracts.ListNewest(ctx, s.Store.Queries, sellerID, beforeAt, beforeID, limit)
}

// RecordReturn records assets given back by their serial numbers, all in
// the parcel of one tracking link; the contract ends as returned when its
// last asset is back after its end date.
func (s *Contracts) RecordReturn(ctx context.Context, sellerID, contractID uuid.UUID, r contracts.Return) (contracts.Stored, error) {
	if err := contracts.CheckReturn(r, s.URLs); err != nil {
		return contracts.Stored{}, err
	}
	assets := make([]activities.ReturnedAsset, len(r.SerialNumbers))
	for i, sn := range r.SerialNumbers {
		assets[i] = activities.ReturnedAsset{SerialNumber: sn, TrackingURL: r.TrackingURL}
	}
	return s.change(ctx, sellerID, contractID, contract.RecordReturn.Update, func(ctx context.Context) error {
		_, err := contract.RecordAssetsReturn(ctx, s.Temporal, contractID, assets)
		return err
	})
}

// BuyOut ends a contract by its customer's buy-out at the residual value.
func (s *Contracts) BuyOut(ctx context.Context, sellerID, contractID uuid.UUID) (contracts.Stored, error) {
	return s.change(ctx, sellerID, contractID, contract.BuyOut.Update, func(ctx context.Context) error {
		_, err := contract.BuyOutContract(ctx, s.Temporal, contractID)
		return err
	})
}

// Extend extends a contract by a term or month by month.
func (s *Contracts) Extend(ctx context.Context, sellerID, contractID uuid.UUID, mode contracts.ExtensionMode) (contracts.Stored, error) {
	return s.change(ctx, sellerID, contractID, contract.ExtendByTerm.Update, func(ctx context.Context) error {
		_, err := contract.ExtendContract(ctx, s.Temporal, contractID, mode)
		return err
	})
}

// QuoteTermination prices ending a contract early on its today and keeps
// the quote, which TerminateContract accepts by its id.
func (s *Contracts) QuoteTermination(ctx context.Context, sellerID, contractID uuid.UUID) (contracts.StoredQuote, error) {
	var quote contracts.StoredQuote
	err := s.send(ctx, sellerID, contractID, contract.QuoteTermination.Update, func(ctx context.Context) (err error) {
		quote, err = contract.QuoteContractTermination(ctx, s.Temporal, contractID)
		return err
	})
	return quote, err
}

// Terminate ends a contract early by accepting one of its termination
// quotes.
func (s *Contracts) Terminate(ctx context.Context, sellerID, contractID, quoteID uuid.UUID) (contracts.Stored, error) {
	return s.change(ctx, sellerID, contractID, contract.Terminate.Update, func(ctx context.Context) error {
		_, err := contract.TerminateContract(ctx, s.Temporal, contractID, quoteID)
		return err
	})
}

// MarkStarted starts a contract's term on its today without a shipment
// (the sandbox's mark_contract_started).
func (s *Contracts) MarkStarted(ctx context.Context, sellerID, contractID uuid.UUID) (contracts.Stored, error) {
	return s.change(ctx, sellerID, contractID, contract.Deliver.Update, func(ctx context.Context) error {
		_, err := contract.MarkStarted(ctx, s.Temporal, contractID)
		return err
	})
}

// AdvanceClock moves a sandbox contract's clock forward by months or to
// the start of a day, firing everything due on the way in date order
// (the sandbox's advance_contract_clock). Exactly one of months and to is
// given; the workflow refuses a day that is not after the contract's
// today.
func (s *Contracts) AdvanceClock(ctx context.Context, sellerID, contractID uuid.UUID, months int, to *civil.Date) (contracts.Stored, error) {
	return s.change(ctx, sellerID, contractID, contract.AdvanceClock.Update, func(ctx context.Context) error {
		_, err := contract.AdvanceContractClock(ctx, s.Temporal, contractID, contract.AdvanceClockRequest{Months: months, To: to})
		return err
	})
}

// change sends an update of a seller's contract (send) and returns the
// contract as persisted after it.
func (s *Contracts) change(ctx context.Context, sellerID, contractID uuid.UUID, update string, send func(context.Context) error) (contracts.Stored, error) {
	if err := s.send(ctx, sellerID, contractID, update, send); err != nil {
		return contracts.Stored{}, err
	}
	return s.Get(ctx, sellerID, contractID)
}

// send sends an update of a seller's contract and explains a refusal: the
// workflow's own or, for a contract in a final status (whose workflow
// ended), the one the transition table gives for the update; anything
// else is a fault.
func (s *Contracts) send(ctx context.Context, sellerID, contractID uuid.UUID, update string, send func(context.Context) error) error {
	if _, err := s.Store.GetRentalContract(ctx, dbgen.GetRentalContractParams{SellerID: sellerID, ID: contractID}); db.IsNotFound(err) {
		return ErrContractNotFound
	} else if err != nil {
		return err
	}
	return explainUpdate(ctx, send(ctx), contract.Transitions, update, func(ctx context.Context) (contracts.Status, error) {
		current, err := s.Store.GetRentalContract(ctx, dbgen.GetRentalContractParams{SellerID: sellerID, ID: contractID})
		return contracts.Status(current.Status), err
	})
}
