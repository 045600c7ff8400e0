package collection_test

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/collectiontest"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/collection"
)

// The Schedule's workflow collects the day's owed installments and then
// pays the sellers their completed orders' payouts; started again on the
// same day it collects and pays nothing twice.
func TestTheDailyRunCollectsThenPaysOut(t *testing.T) {
	store, tc := testenv.Database(t), testenv.Temporal(t)
	f := contracttest.New(t, store, nil)
	ring := collectiontest.Ring(t)
	zone, err := time.LoadLocation(f.Config.Contracts.Timezone)
	if err != nil {
		t.Fatal(err)
	}
	today := civil.DateOf(time.Now().In(zone))
	collectiontest.Running(t, f, ring, "daily-collected", today)
	owedItems := countRows(t, store, "SELECT count(*) FROM contract_installments WHERE status = 'due'")

	orderID := f.Order(t, "daily-paid", contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 120000, MonthlyNet: 3000, Months: 12, Rented: true})
	f.Confirm(t, orderID)
	if shipped := f.Ship(t, orderID, "laptop", "daily-paid-1"); !shipped.Complete {
		t.Fatal("the order is not complete")
	}
	if _, err := payouts.SetAccount(t.Context(), store.Queries, f.SellerID, "DE02 1203 0000 0000 2020 51", "BYLADEM1001"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(worker(t, f, tc, collectiontest.Runner(t, store, ring).Creditors).Stop)

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	daily := func(id string) collection.DailyResult {
		t.Helper()
		run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: collection.TaskQueue},
			collection.Daily, collection.DailyInput{Timezone: f.Config.Contracts.Timezone})
		var out collection.DailyResult
		if err == nil {
			err = run.Get(ctx, &out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	first := daily("daily-test-1")
	if first.Collections.Submitted != owedItems || first.Collections.Files != 1 || first.Payouts.Files != 1 || first.Payouts.Transfers != 1 {
		t.Errorf("the day: %+v, want %d collections in one file and one payout", first, owedItems)
	}
	second := daily("daily-test-2")
	if second.Collections.Submitted != 0 || second.Payouts.Transfers != 0 {
		t.Errorf("the day again: %+v, want nothing collected or paid again", second)
	}
	if balance, err := ledger.SellerPayableBalance(t.Context(), store.Queries, f.SellerID); err != nil || balance != 0 {
		t.Errorf("owed to the seller after the day: %d (%v)", balance, err)
	}
	if err := ledger.Check(t.Context(), store.Queries); err != nil {
		t.Errorf("ledger: %v", err)
	}
}
