package payouts_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/internal/testing/xmllint"
)

// pain001Schema is the vendored schema of the payouts' files.
const pain001Schema = "../sepa/testdata/pain.001.001.09.xsd"

// laptops: two laptops bought at 1,200.00 net each, rented for 12 months.
var laptops = contracttest.Line{Reference: "laptop", Quantity: 2, UnitNet: 120000, MonthlyNet: 3000, Months: 12, Rented: true}

func TestFee(t *testing.T) {
	for _, c := range []struct{ financed, bp, want int64 }{{240000, 0, 0}, {240000, 150, 3600}, {333, 150, 5}, {100, 50, 1}, {99, 50, 0}} {
		if got := payouts.Fee(c.financed, c.bp); got != c.want {
			t.Errorf("Fee(%d, %d) = %d, want %d", c.financed, c.bp, got, c.want)
		}
	}
}

// completedOrder is an order whose last assets were shipped.
func completedOrder(t *testing.T, f *contracttest.Fixture, reference string) uuid.UUID {
	t.Helper()
	orderID := f.Order(t, reference, laptops)
	f.Confirm(t, orderID)
	if shipped := f.Ship(t, orderID, "laptop", reference+"-1", reference+"-2"); !shipped.Complete {
		t.Fatal("the order is not complete")
	}
	return orderID
}

// A completed order owes its seller the financed amount less the fee,
// booked once; a batch pays it in one pain.001 file that meets the schema,
// books it and announces it, and a second batch pays nothing. A seller
// without a payout account is skipped until it has one.
func TestPayoutsAreOwedOnCompletionAndPaidOnce(t *testing.T) {
	store := testenv.Database(t)
	f := contracttest.New(t, store, nil)
	f.Orders.Payouts.FeeBasisPoints = 150
	orderID := completedOrder(t, f, "payout-1")

	list, total, err := payouts.List(t.Context(), store.Queries, f.SellerID, payouts.ListFilter{Limit: 10})
	if err != nil || total != 1 {
		t.Fatalf("payouts %+v (%v)", list, err)
	}
	owed := list[0]
	if owed.OrderID != orderID || owed.Status != payouts.Owed || owed.Financed != 240000 || owed.Fee != 3600 || owed.Amount != 236400 {
		t.Errorf("owed %+v", owed)
	}
	if balance, err := ledger.SellerPayableBalance(t.Context(), store.Queries, f.SellerID); err != nil || balance != 236400 {
		t.Errorf("seller payable %d (%v)", balance, err)
	}

	batch, err := payouts.NewBatch(f.Config, store)
	if err != nil {
		t.Fatal(err)
	}
	day := civil.DateOf(time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)) // a Saturday
	result, err := batch.Run(t.Context(), day, time.Now())
	if err != nil || len(result.Files) != 0 || result.Skipped != 1 {
		t.Fatalf("without a payout account: %+v (%v)", result, err)
	}
	if _, err := payouts.SetAccount(t.Context(), store.Queries, f.SellerID, "DE89 3704 0044 0532 0130 00", "COBADEFFXXX"); err != nil {
		t.Fatal(err)
	}
	if _, err := payouts.SetAccount(t.Context(), store.Queries, f.SellerID, "DE00 3704 0044 0532 0130 00", ""); err == nil {
		t.Error("a wrong IBAN was taken")
	}
	result, err = batch.Run(t.Context(), day, time.Now())
	if err != nil || len(result.Files) != 1 || result.Files[0].Transfers != 1 || result.Files[0].Total != 236400 || result.Skipped != 0 {
		t.Fatalf("the batch: %+v (%v)", result, err)
	}
	file, err := store.GetPayoutFile(t.Context(), result.Files[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	xmllint.Validate(t, pain001Schema, file.Content)

	again, err := batch.Run(t.Context(), day, time.Now())
	if err != nil || len(again.Files) != 0 {
		t.Errorf("a second batch: %+v (%v)", again, err)
	}
	sent, err := payouts.Load(t.Context(), store.Queries, f.SellerID, owed.ID)
	if err != nil || sent.Status != payouts.Sent || sent.ExecutionDate == nil || sent.ExecutionDate.String() != "2026-11-30" {
		t.Errorf("sent %+v (%v)", sent, err)
	}
	if balance, err := ledger.SellerPayableBalance(t.Context(), store.Queries, f.SellerID); err != nil || balance != 0 {
		t.Errorf("seller payable after the payout %d (%v)", balance, err)
	}
	var events int
	if err := store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM events WHERE object_id = $1 AND type = $2", owed.ID, webhook.PayoutSent).Scan(&events); err != nil || events != 1 {
		t.Errorf("%d payout.sent events (%v)", events, err)
	}
	if err := ledger.Check(t.Context(), store.Queries); err != nil {
		t.Error(err)
	}
}
