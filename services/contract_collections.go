package services

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/workflows/contract"
)

// SimulateCollection settles the contract's oldest collection under way as
// its bank would (the sandbox's mark_installment_paid and
// mark_installment_failed): paid when reason is empty, else returned with
// the reason. The notice goes through the contract's workflow like an
// imported bank file, so the same events and dunning follow. A contract
// with no collection under way is refused: the daily run submits its due
// installments first.
func (s *Contracts) SimulateCollection(ctx context.Context, sellerID, contractID uuid.UUID, reason sepa.ReturnReason) (contracts.Stored, error) {
	return s.change(ctx, sellerID, contractID, contract.SettleCollection.Update, func(ctx context.Context) error {
		item, err := s.Store.OldestOpenCollectionItem(ctx, contractID)
		if db.IsNotFound(err) {
			return refusal.New(refusal.StatusNotAllowed, "contract %s has no collection under way: the daily collection run submits its due installments", contractID)
		}
		if err != nil {
			return err
		}
		notice := sepa.Notice{Outcome: sepa.Paid, EndToEndID: sepa.EndToEndID(item.EndToEndID), Amount: item.Amount}
		if reason != "" {
			notice.Outcome, notice.Reason = sepa.Returned, reason
		}
		_, err = contract.SettleContractCollection(ctx, s.Temporal, contractID, contract.CollectionRequest{Notice: activities.NoticeOf(notice)})
		return err
	})
}
