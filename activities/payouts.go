package activities

import (
	"context"
	"time"

	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Payouts pays sellers what their completed orders are owed: the day's
// batch of pain.001 credit transfers, which the daily Schedule runs after
// the day's collections. A batch run again pays nothing twice.
type Payouts struct {
	Batch *payouts.Batch
}

// PayoutBatchDate names the batch of a day.
type PayoutBatchDate struct {
	Day civil.Date
}

// PayoutBatchSent is what a day's batch sent: its files and transfers,
// and how many owed payouts waited for their seller's account.
type PayoutBatchSent struct {
	Files     int
	Transfers int
	Skipped   int64
}

// RunPayouts writes the day's payout files, marks their payouts sent and
// announces them with payout.sent.
func (a *Payouts) RunPayouts(ctx context.Context, in PayoutBatchDate) (PayoutBatchSent, error) {
	result, err := a.Batch.Run(ctx, in.Day, time.Now())
	if err != nil {
		return PayoutBatchSent{}, err
	}
	sent := PayoutBatchSent{Files: len(result.Files), Skipped: result.Skipped}
	for _, f := range result.Files {
		sent.Transfers += f.Transfers
	}
	return sent, nil
}
