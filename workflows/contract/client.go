package contract

import (
	"context"

	"github.com/google/uuid"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/collections"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/workflows/entity"
)

// StartOptions start the workflow of a contract awaiting delivery,
// findable by its seller, its status and its offer's reference.
func StartOptions(contractID, sellerID uuid.UUID, reference string) client.StartWorkflowOptions {
	return entity.StartOptions(WorkflowID(contractID), TaskQueue, sellerID, string(Opening().To), reference)
}

// The functions below send a contract's updates and return once the
// workflow persisted the change (read the contract then with
// contracts.Load). The update id is the request's idempotency key
// (entity.Update). A failure is the workflow's refusal when
// entity.RefusalOf finds one; when entity.Ended says the workflow is
// over, the contract is in a final status and Transitions.Refusal(status,
// update) is the refusal to answer.

// MarkStarted starts a contract's term on its today without a shipment
// (the sandbox's mark_contract_started).
func MarkStarted(ctx context.Context, c client.Client, contractID uuid.UUID) (Answer, error) {
	return send(ctx, c, contractID, Deliver.Update)
}

// CancelContract cancels a contract awaiting delivery.
func CancelContract(ctx context.Context, c client.Client, contractID uuid.UUID) (Answer, error) {
	return send(ctx, c, contractID, Cancel.Update)
}

// RecordAssetsReturn records assets given back (POST
// /v1/contracts/{id}/returns).
func RecordAssetsReturn(ctx context.Context, c client.Client, contractID uuid.UUID, assets []activities.ReturnedAsset) (Answer, error) {
	return send(ctx, c, contractID, RecordReturn.Update, ReturnRequest{Assets: assets})
}

// BuyOutContract ends a contract by a buy-out (POST
// /v1/contracts/{id}/buy-out).
func BuyOutContract(ctx context.Context, c client.Client, contractID uuid.UUID) (Answer, error) {
	return send(ctx, c, contractID, BuyOut.Update)
}

// ExtendContract extends a contract by a term or month by month (POST
// /v1/contracts/{id}/extensions).
func ExtendContract(ctx context.Context, c client.Client, contractID uuid.UUID, mode contracts.ExtensionMode) (Answer, error) {
	return send(ctx, c, contractID, ExtendByTerm.Update, ExtendRequest{Mode: mode})
}

// QuoteContractTermination prices ending a contract early on its today and
// stores the quote (GET /v1/contracts/{id}/termination-quote).
func QuoteContractTermination(ctx context.Context, c client.Client, contractID uuid.UUID) (contracts.StoredQuote, error) {
	var quote contracts.StoredQuote
	err := entity.Update(ctx, c, WorkflowID(contractID), QuoteTermination.Update, &quote)
	return quote, err
}

// TerminateContract accepts a termination quote (POST
// /v1/contracts/{id}/termination).
func TerminateContract(ctx context.Context, c client.Client, contractID, quoteID uuid.UUID) (Answer, error) {
	return send(ctx, c, contractID, Terminate.Update, TerminateRequest{QuoteID: quoteID})
}

// AdvanceContractClock moves a sandbox contract's clock forward, firing
// everything on the way in date order (the sandbox's
// advance_contract_clock).
func AdvanceContractClock(ctx context.Context, c client.Client, contractID uuid.UUID, req AdvanceClockRequest) (Answer, error) {
	return send(ctx, c, contractID, AdvanceClock.Update, req)
}

// send sends an update that answers the contract's status and today.
func send(ctx context.Context, c client.Client, contractID uuid.UUID, update string, args ...any) (Answer, error) {
	var answer Answer
	err := entity.Update(ctx, c, WorkflowID(contractID), update, &answer, args...)
	return answer, err
}

// SettleContractCollection applies the bank's notice about one of the
// contract's collections (tenure collections returns import, the
// sandbox's mark_installment_paid and mark_installment_failed).
func SettleContractCollection(ctx context.Context, c client.Client, contractID uuid.UUID, req CollectionRequest) (CollectionAnswer, error) {
	var answer CollectionAnswer
	err := entity.Update(ctx, c, WorkflowID(contractID), SettleCollection.Update, &answer, req)
	return answer, err
}

// WriteOffContract writes a defaulted contract off (tenure contracts
// write-off).
func WriteOffContract(ctx context.Context, c client.Client, contractID uuid.UUID) (Answer, error) {
	return send(ctx, c, contractID, WriteOff.Update)
}

// TerminateAndClaimContract terminates a defaulted contract and claims
// its installments not yet due (tenure contracts terminate-and-claim).
func TerminateAndClaimContract(ctx context.Context, c client.Client, contractID uuid.UUID) (Answer, error) {
	return send(ctx, c, contractID, TerminateAndClaim.Update)
}

// DeliverNotices hands each notice of an imported bank notification to its
// contract's workflow (settle_collection); a contract whose workflow has
// ended (returned, bought out, terminated) has it applied by own, without
// dunning.
func DeliverNotices(c client.Client, own collections.Deliver) collections.Deliver {
	return func(ctx context.Context, item dbgen.CollectionItem, n sepa.Notice) error {
		_, err := SettleContractCollection(ctx, c, item.ContractID, CollectionRequest{Notice: activities.NoticeOf(n)})
		if entity.Ended(err) {
			return own(ctx, item, n)
		}
		return err
	}
}
