package workflows_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/order"
)

// The contracts of orders confirmed before contracts ran get their
// workflows from the backfill, once: the shipped one starts its term on
// the shipment's day with its rental computed again for the line's
// quantity, the one still awaiting its assets waits, the one whose order
// was cancelled is cancelled; a second backfill finds nothing to do.
func TestBackfillStartsLegacyContractsOnce(t *testing.T) {
	store, tc, ctx := workingStack(t)
	f := contracttest.New(t, store, nil)
	line := contracttest.Line{Reference: "laptop", Quantity: 2, UnitNet: 120000, MonthlyNet: 3000, Months: 24, Rented: true}
	legacy := func(reference string) (uuid.UUID, uuid.UUID) {
		orderID := f.Order(t, reference, line)
		id := f.Confirm(t, orderID)[0]
		// As the code before contracts wrote it (one unit's rent, no tax
		// rate or purchase price, no linked assets) and 00090 left it.
		_, err := store.Pool.Exec(ctx, `UPDATE rental_contracts SET monthly_net = 3000, monthly_gross = 3570, tax_rate = 0, purchase_net = 0,
			legacy = true WHERE id = $1`, id)
		if err == nil {
			_, err = store.Pool.Exec(ctx, "UPDATE order_assets SET contract_id = NULL WHERE order_id = $1", orderID)
		}
		if err != nil {
			t.Fatal(err)
		}
		return orderID, id
	}
	shippedOrder, shipped := legacy("ref-shipped")
	f.Ship(t, shippedOrder, "laptop", "SN-B1", "SN-B2")
	_, waiting := legacy("ref-waiting")
	canceledOrder, canceled := legacy("ref-canceled")
	row := order.Transitions.Must(orders.Confirmed, order.Cancel)
	if err := f.Orders.Transition(ctx, activities.OrderTransition{OrderID: canceledOrder, SellerID: f.SellerID, From: row.From, To: row.To}); err != nil {
		t.Fatal(err)
	}

	n, err := workflows.BackfillContracts(ctx, tc, store, f.Config)
	if err != nil || n != 3 {
		t.Fatalf("the backfill found %d contracts (%v), want 3", n, err)
	}
	loc, err := f.Config.Contracts.Location()
	if err != nil {
		t.Fatal(err)
	}
	var shippedAt time.Time
	if err := store.Pool.QueryRow(ctx, "SELECT max(created_at) FROM shipments WHERE order_id = $1", shippedOrder).Scan(&shippedAt); err != nil {
		t.Fatal(err)
	}
	shipmentDay := civil.DateOf(shippedAt.In(loc))
	// settled waits until a contract is opened, in a status, and its
	// workflow sleeps with nothing left to catch up.
	settled := func(id uuid.UUID, status contracts.Status) contracts.Stored {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			row, err := store.GetRentalContract(ctx, dbgen.GetRentalContractParams{SellerID: f.SellerID, ID: id})
			if err == nil && !row.Legacy && contracts.Status(row.Status) == status {
				c, err := contracts.Load(ctx, store.Queries, f.SellerID, id)
				if err != nil {
					t.Fatal(err)
				}
				if c.Schedule == nil || c.Schedule.Installments[0].Status == contracts.InstallmentDue {
					return c
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("contract %s stayed %+v (%v), want %s and opened", id, row, err, status)
			}
		}
	}
	c := settled(shipped, contracts.Running)
	if c.Schedule.Term.Start != shipmentDay || c.Rental.Monthly.Net != 6000 || c.Rental.PurchaseNet != 240000 || len(c.Assets) != 2 {
		t.Errorf("the shipped contract %+v", c)
	}
	if c := settled(waiting, contracts.AwaitingDelivery); c.Schedule != nil || len(c.Assets) != 2 {
		t.Errorf("the waiting contract %+v", c)
	}
	settled(canceled, contracts.Canceled)

	if n, err := workflows.BackfillContracts(ctx, tc, store, f.Config); err != nil || n != 0 {
		t.Errorf("a second backfill found %d contracts (%v)", n, err)
	}
	var started int
	if err := store.Pool.QueryRow(ctx, "SELECT count(*) FROM events WHERE type = 'contract.started'").Scan(&started); err != nil || started != 1 {
		t.Errorf("%d contract.started events (%v)", started, err)
	}
}
