package payouts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/sepa"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Batch pays the owed payouts by SEPA credit transfer.
type Batch struct {
	Store *db.Store
	// Accounts are the accounts payouts leave from, by contractual entity.
	Accounts map[string]sepa.AccountHolder
}

// NewBatch is the batch of a configuration: payouts leave from each
// contractual entity's creditor account (creditors.<entity>, decision
// 0249), the one bank account its ledger's bank account is.
func NewBatch(cfg *config.Config, store *db.Store) (*Batch, error) {
	b := &Batch{Store: store, Accounts: map[string]sepa.AccountHolder{}}
	for entity, cr := range cfg.Creditors {
		account, err := cr.Account(entity)
		if err != nil {
			return nil, err
		}
		b.Accounts[entity] = account
	}
	return b, nil
}

// File is a credit transfer file a batch wrote.
type File struct {
	ID        uuid.UUID
	Entity    string
	MessageID string
	Transfers int
	Total     int64
}

// Result is what a batch did: the files it wrote, and how many owed
// payouts it skipped because their sellers have no payout account.
type Result struct {
	Files   []File
	Skipped int64
}

// Run pays every owed payout of sellers with a payout account on a day:
// per contractual entity, in one transaction, it writes a pain.001 file
// of the payouts (executed on the day, or the next TARGET business day),
// stores it, marks them sent, posts Dr seller_payable / Cr bank for each
// and records payout.sent. A payout sent is never owed again, so a second
// run, or one concurrent with it, pays nothing twice.
func (b *Batch) Run(ctx context.Context, day civil.Date, now time.Time) (Result, error) {
	var result Result
	entities, err := b.Store.ListOwedPayoutEntities(ctx)
	if err != nil {
		return result, err
	}
	for _, entity := range entities {
		debtor, ok := b.Accounts[entity]
		if !ok {
			return result, fmt.Errorf("contractual entity %q owes payouts but has no creditors.%s entry to pay from", entity, entity)
		}
		err := b.Store.InTx(ctx, func(q *dbgen.Queries) error {
			file, err := pay(ctx, q, entity, debtor, day, now)
			if err == nil && file.Transfers > 0 {
				result.Files = append(result.Files, file)
			}
			return err
		})
		if err != nil {
			return result, err
		}
	}
	result.Skipped, err = b.Store.CountOwedPayoutsWithoutAccount(ctx)
	return result, err
}

// pay writes, stores and books one entity's file.
func pay(ctx context.Context, q *dbgen.Queries, entity string, debtor sepa.AccountHolder, day civil.Date, now time.Time) (File, error) {
	rows, err := q.LockOwedPayouts(ctx, entity)
	if err != nil || len(rows) == 0 {
		return File{}, err
	}
	execution := sepa.BusinessDayOnOrAfter(day)
	transfers := func(yield func(sepa.CreditTransfer, error) bool) {
		for _, r := range rows {
			if !yield(transferOf(r, execution)) {
				return
			}
		}
	}
	plan, err := sepa.PlanCreditTransfers(transfers)
	if err != nil {
		return File{}, err
	}
	file := File{ID: uuid.Must(uuid.NewV7()), Entity: entity, Transfers: len(rows)}
	file.MessageID = "TNRP-" + day.Midnight(time.UTC).Format("20060102") + "-" + hexOf(file.ID)[20:]
	var out bytes.Buffer
	err = sepa.WriteCreditTransfers(&out, sepa.CreditTransferFile{MessageID: file.MessageID, CreatedAt: now, Debtor: debtor, BatchBooking: true}, plan, iter.Seq2[sepa.CreditTransfer, error](transfers))
	if err != nil {
		return File{}, err
	}
	for _, r := range rows {
		file.Total += r.Amount
	}
	err = q.CreatePayoutFile(ctx, dbgen.CreatePayoutFileParams{
		ID: file.ID, ContractualEntity: entity, RunDate: day.Midnight(time.UTC), MessageID: file.MessageID,
		Transfers: int32(file.Transfers), Total: file.Total, Content: out.Bytes(),
	})
	if err != nil {
		return File{}, err
	}
	for _, r := range rows {
		if err := send(ctx, q, r, file.ID, execution); err != nil {
			return File{}, err
		}
	}
	return file, nil
}

// transferOf is the credit transfer of a payout.
func transferOf(r dbgen.LockOwedPayoutsRow, execution civil.Date) (sepa.CreditTransfer, error) {
	iban, err := sepa.ParseIBAN(r.PayoutIban)
	if err != nil {
		return sepa.CreditTransfer{}, fmt.Errorf("seller %s's payout account: %w", r.SellerID, err)
	}
	return sepa.CreditTransfer{
		EndToEndID: sepa.EndToEndID("P" + hexOf(r.ID)), Amount: r.Amount, ExecutionDate: execution,
		CreditorName: r.SellerName, CreditorIBAN: iban, CreditorBIC: sepa.BIC(r.PayoutBic),
		Remittance: "Tenure payout, order " + r.OrderID.String(),
	}, nil
}

// send marks a payout sent by a file, books it and records payout.sent.
func send(ctx context.Context, q *dbgen.Queries, r dbgen.LockOwedPayoutsRow, fileID uuid.UUID, execution civil.Date) error {
	day := execution.Midnight(time.UTC)
	n, err := q.MarkPayoutSent(ctx, dbgen.MarkPayoutSentParams{ID: r.ID, FileID: &fileID, ExecutionDate: &day})
	if err != nil {
		return err
	}
	if n != 1 {
		return fmt.Errorf("payout %s is no longer owed", r.ID)
	}
	_, err = ledger.Post(ctx, q, ledger.Journal{
		Key: "payout/" + r.ID.String() + "/sent", Kind: "payout", Currency: r.Currency,
		Entries: []ledger.Entry{
			ledger.Debit(ledger.SellerPayable, r.Amount).Seller(r.SellerID),
			ledger.Credit(ledger.Bank, r.Amount),
		},
	})
	if err != nil {
		return err
	}
	record, err := Load(ctx, q, r.SellerID, r.ID)
	if err != nil {
		return err
	}
	payload, err := json.Marshal(record)
	if err != nil {
		return err
	}
	_, err = webhook.Record(ctx, q, webhook.NewEvent{
		ID: webhook.EventID("payout/" + r.ID.String() + "/sent"), SellerID: r.SellerID, Type: webhook.PayoutSent, ObjectID: r.ID, Payload: payload,
	})
	return err
}

// hexOf is an id's 32 hexadecimal digits, upper case: the SEPA set.
func hexOf(id uuid.UUID) string { return strings.ToUpper(strings.ReplaceAll(id.String(), "-", "")) }
