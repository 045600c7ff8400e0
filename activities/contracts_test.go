package activities_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/contract"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// laptops is an order line of two laptops rented for 12 months at 30.00
// net a unit and month, bought at 1,200.00 net a unit.
var laptops = contracttest.Line{Reference: "laptop", Quantity: 2, UnitNet: 120000, MonthlyNet: 3000, Months: 12, Rented: true}

// day parses a date of the tests.
func day(t *testing.T, s string) civil.Date {
	t.Helper()
	d, err := civil.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// rowOf is the table's transition for a trigger, made on a day.
func rowOf(f *contracttest.Fixture, id uuid.UUID, from contracts.Status, t statemachine.Trigger, today civil.Date) activities.ContractTransition {
	row := contract.Transitions.Must(from, t)
	return activities.ContractTransition{ContractID: id, SellerID: f.SellerID, From: row.From, To: row.To, Event: row.Event, Today: today}
}

// twice runs a change twice, as Temporal may, and fails the test unless
// both runs answer the same progress.
func twice[In any](t *testing.T, fn func(context.Context, In) (activities.ContractProgress, error), in In) activities.ContractProgress {
	t.Helper()
	first, err := fn(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	second, err := fn(t.Context(), in)
	if err != nil {
		t.Fatalf("the second run: %v", err)
	}
	if !sameProgress(first, second) {
		t.Fatalf("the runs answered %+v and %+v", first, second)
	}
	return second
}

func sameProgress(a, b activities.ContractProgress) bool {
	eq := func(x, y *civil.Date) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.Status == b.Status && a.Assets == b.Assets && a.Returned == b.Returned &&
		eq(a.NextDue, b.NextDue) && eq(a.NoticeDate, b.NoticeDate) && eq(a.EndDate, b.EndDate) && eq(a.ScheduleEnd, b.ScheduleEnd)
}

// events counts a contract's events of a type.
func events(t *testing.T, f *contracttest.Fixture, id uuid.UUID, eventType webhook.EventType) int {
	t.Helper()
	var n int
	err := f.Store.Pool.QueryRow(t.Context(), "SELECT count(*) FROM events WHERE object_id = $1 AND type = $2", id, eventType).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func load(t *testing.T, f *contracttest.Fixture, id uuid.UUID) contracts.Stored {
	t.Helper()
	s, err := contracts.Load(t.Context(), f.Store.Queries, f.SellerID, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// refusedWith checks that err is a refusal of a kind.
func refusedWith(t *testing.T, err error, kind refusal.Kind) {
	t.Helper()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != string(kind) || !app.NonRetryable() {
		t.Errorf("want a %s refusal, got %v", kind, err)
	}
}

// Confirming an order writes one contract per rented line, its rental for
// the line's quantity (not a unit's), awaiting delivery, with the assets
// it rents; a retried confirmation writes nothing more.
func TestConfirmationWritesTheContracts(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	orderID := f.Order(t, "ref-confirm", laptops, contracttest.Line{Reference: "mouse", Quantity: 1, UnitNet: 2000})
	ids := f.Confirm(t, orderID)
	if again := f.Confirm(t, orderID); len(ids) != 1 || len(again) != 1 || again[0] != ids[0] {
		t.Fatalf("contracts %v, then %v", ids, again)
	}
	c := load(t, f, ids[0])
	want := contracts.Rental{Months: 12, Monthly: pricing.FromNet("EUR", 6000, 1900), PurchaseNet: 240000}
	if c.Status != contracts.AwaitingDelivery || c.Rental != want || c.Schedule != nil || c.SellerOfferReference != "ref-confirm" || c.OrderLine != 0 {
		t.Errorf("contract %+v", c)
	}
	if len(c.Assets) != 2 || c.Product.Quantity != 2 || c.Product.References[0].Reference != "laptop" {
		t.Errorf("assets %+v, product %+v", c.Assets, c.Product)
	}
}

// The term starts once, with its schedule; installments fall due once each
// with one event each, however often the activities run.
func TestStartAndFallDueAreIdempotent(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	id := f.Confirm(t, f.Order(t, "ref-start", laptops))[0]
	start := day(t, "2026-01-31")
	p := twice(t, f.Contracts.Start, activities.ContractStart{ContractTransition: rowOf(f, id, contracts.AwaitingDelivery, contract.Deliver, start), On: start})
	if p.Status != contracts.Running || *p.NextDue != start || *p.EndDate != day(t, "2027-01-30") || *p.NoticeDate != day(t, "2026-11-01") || p.Assets != 2 {
		t.Fatalf("progress %+v", p)
	}
	c := load(t, f, id)
	if len(c.Schedule.Installments) != 12 || c.Schedule.Installments[1].DueDate != day(t, "2026-02-28") || events(t, f, id, webhook.ContractStarted) != 1 {
		t.Fatalf("schedule %+v", c.Schedule)
	}
	through := activities.ContractFallingDue{ContractTransition: rowOf(f, id, contracts.Running, contract.FallDue, day(t, "2026-03-31")), Through: day(t, "2026-03-31")}
	p = twice(t, f.Contracts.FallDue, through)
	if *p.NextDue != day(t, "2026-04-30") || events(t, f, id, webhook.ContractInstallmentDue) != 3 {
		t.Errorf("progress %+v, %d events", p, events(t, f, id, webhook.ContractInstallmentDue))
	}
	c = load(t, f, id)
	for i, inst := range c.Schedule.Installments {
		if due := i < 3; (inst.Status == contracts.InstallmentDue) != due {
			t.Errorf("installment %d is %s", inst.Number, inst.Status)
		}
	}
}

// startedContract is a contract of laptops whose 12-month term started on
// 31 January 2026, with its installments due until a day.
func startedContract(t *testing.T, f *contracttest.Fixture, reference string, serials ...string) uuid.UUID {
	t.Helper()
	orderID := f.Order(t, reference, laptops)
	id := f.Confirm(t, orderID)[0]
	if len(serials) > 0 {
		f.Ship(t, orderID, "laptop", serials...)
	}
	start := day(t, "2026-01-31")
	if _, err := f.Contracts.Start(t.Context(), activities.ContractStart{ContractTransition: rowOf(f, id, contracts.AwaitingDelivery, contract.Deliver, start), On: start}); err != nil {
		t.Fatal(err)
	}
	return id
}

// The notice prices the options with the seller's own residual value; a
// term extension grows the schedule by 12 months at 70 % once.
func TestNoticeAndExtensionAreIdempotent(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	if _, err := f.Store.Pool.Exec(t.Context(), "UPDATE sellers SET contract_residual_basis_points = 1500 WHERE id = $1", f.SellerID); err != nil {
		t.Fatal(err)
	}
	id := startedContract(t, f, "ref-notice")
	notice := day(t, "2026-11-01")
	p := twice(t, f.Contracts.GiveNotice, rowOf(f, id, contracts.Running, contract.GiveNotice, notice))
	c := load(t, f, id)
	if p.Status != contracts.Ending || c.EndOfTerm == nil || c.EndOfTerm.BuyOut != pricing.FromNet("EUR", 36000, 1900) ||
		c.EndOfTerm.TermExtension.Monthly != pricing.FromNet("EUR", 4200, 1900) || events(t, f, id, webhook.ContractEnding) != 1 {
		t.Fatalf("progress %+v, options %+v", p, c.EndOfTerm)
	}
	ext := activities.ContractExtension{ContractTransition: rowOf(f, id, contracts.Ending, contract.ExtendByTerm, notice), Mode: contracts.ExtendByTerm}
	p = twice(t, f.Contracts.Extend, ext)
	c = load(t, f, id)
	if p.Status != contracts.Running || *p.EndDate != day(t, "2028-01-30") || *p.NoticeDate != day(t, "2027-11-01") ||
		len(c.Schedule.Installments) != 24 || c.Schedule.Installments[12].Amount.Net != 4200 || c.EndOfTerm != nil ||
		len(c.Extensions) != 1 || c.Extensions[0].On != notice || events(t, f, id, webhook.ContractExtended) != 1 {
		t.Errorf("progress %+v, contract %+v", p, c)
	}
}

// A contract going on month by month grows by one month at the last
// amount once its schedule's end passed, once.
func TestGrowingIsIdempotent(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	id := startedContract(t, f, "ref-grow")
	if _, err := f.Contracts.GiveNotice(t.Context(), rowOf(f, id, contracts.Running, contract.GiveNotice, day(t, "2026-11-01"))); err != nil {
		t.Fatal(err)
	}
	end := day(t, "2027-01-30")
	if _, err := f.Contracts.FallDue(t.Context(), activities.ContractFallingDue{ContractTransition: rowOf(f, id, contracts.Ending, contract.FallDue, end), Through: end}); err != nil {
		t.Fatal(err)
	}
	after := end.AddDays(1)
	twice(t, f.Contracts.Extend, activities.ContractExtension{ContractTransition: rowOf(f, id, contracts.Ending, contract.EndWithoutChoice, after), Mode: contracts.ExtendMonthly, WithoutChoice: true})
	p := twice(t, f.Contracts.Grow, activities.ContractGrowth{ContractTransition: rowOf(f, id, contracts.Monthly, contract.Grow, after), After: end})
	c := load(t, f, id)
	if p.Status != contracts.Monthly || *p.ScheduleEnd != day(t, "2027-02-27") || *p.NextDue != after || len(c.Schedule.Installments) != 13 ||
		c.Schedule.Installments[12].Amount.Net != 6000 || !c.Extensions[0].WithoutChoice || events(t, f, id, webhook.ContractExtended) != 1 {
		t.Errorf("progress %+v, contract %+v", p, c)
	}
}

// A return is recorded once by its id; a serial number given back already,
// or one the contract did not rent, refuses a return.
func TestReturnsAreRecordedOnce(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	id := startedContract(t, f, "ref-return", "SN-A", "SN-B")
	if _, err := f.Contracts.GiveNotice(t.Context(), rowOf(f, id, contracts.Running, contract.GiveNotice, day(t, "2026-11-01"))); err != nil {
		t.Fatal(err)
	}
	today := day(t, "2026-12-01")
	first := activities.ContractReturn{
		ContractTransition: rowOf(f, id, contracts.Ending, contract.RecordReturn, today), ReturnID: uuid.New(),
		Assets: []activities.ReturnedAsset{{SerialNumber: "SN-A", TrackingURL: "https://tracking.example/back-a"}},
	}
	if p := twice(t, f.Contracts.RecordReturn, first); p.Returned != 1 || p.AllReturned() {
		t.Errorf("progress %+v", p)
	}
	again := first
	again.ReturnID = uuid.New()
	_, err := f.Contracts.RecordReturn(t.Context(), again)
	refusedWith(t, err, refusal.InvalidReturn)
	again.Assets = []activities.ReturnedAsset{{SerialNumber: "SN-Z", TrackingURL: "https://tracking.example/z"}}
	_, err = f.Contracts.RecordReturn(t.Context(), again)
	refusedWith(t, err, refusal.InvalidReturn)
	again.Assets = []activities.ReturnedAsset{{SerialNumber: "SN-B", TrackingURL: "https://tracking.example/back-b"}}
	if p := twice(t, f.Contracts.RecordReturn, again); !p.AllReturned() {
		t.Errorf("progress %+v", p)
	}
	c := load(t, f, id)
	if c.Assets[0].Status != contracts.AssetReturned || c.Assets[0].Return.ReturnedOn != today || c.Assets[1].Return.TrackingURL != "https://tracking.example/back-b" {
		t.Errorf("assets %+v", c.Assets)
	}
}

// A buy-out charges the residual value once and makes the rest of the term
// due with it, one event each.
func TestBuyOutIsIdempotent(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	id := startedContract(t, f, "ref-buy")
	today := day(t, "2026-11-01")
	for _, step := range []func() error{
		func() error {
			_, err := f.Contracts.FallDue(t.Context(), activities.ContractFallingDue{ContractTransition: rowOf(f, id, contracts.Running, contract.FallDue, today), Through: today})
			return err
		},
		func() error {
			_, err := f.Contracts.GiveNotice(t.Context(), rowOf(f, id, contracts.Running, contract.GiveNotice, today))
			return err
		},
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	p := twice(t, f.Contracts.BuyOut, rowOf(f, id, contracts.Ending, contract.BuyOut, today))
	c := load(t, f, id)
	if p.Status != contracts.BoughtOut || p.NextDue != nil || len(c.Charges) != 1 || c.Outcome == nil || c.Outcome.Charge.Amount != pricing.FromNet("EUR", 24000, 1900) ||
		c.Outcome.EndedOn != today || events(t, f, id, webhook.ContractEnded) != 1 || events(t, f, id, webhook.ContractInstallmentDue) != 12 {
		t.Errorf("progress %+v, contract %+v", p, c)
	}
}

// The same day gives the same quote; accepting it waives what it settles
// and charges its total, once; a stale or unknown quote is refused.
func TestTerminationIsIdempotent(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	id := startedContract(t, f, "ref-terminate")
	today := day(t, "2026-03-15")
	if _, err := f.Contracts.FallDue(t.Context(), activities.ContractFallingDue{ContractTransition: rowOf(f, id, contracts.Running, contract.FallDue, today), Through: today}); err != nil {
		t.Fatal(err)
	}
	ask := activities.ContractQuoting{ContractRef: activities.ContractRef{ContractID: id, SellerID: f.SellerID}, Today: today}
	quote, err := f.Contracts.QuoteTermination(t.Context(), ask)
	if err != nil {
		t.Fatal(err)
	}
	same, err := f.Contracts.QuoteTermination(t.Context(), ask)
	if err != nil || same.ID != quote.ID || len(quote.Installments) != 10 || quote.Installments[0].Number != 3 || quote.ValidUntil != day(t, "2026-03-29") {
		t.Fatalf("quotes %+v and %+v (%v)", quote, same, err)
	}
	_, err = f.Contracts.Terminate(t.Context(), activities.ContractTermination{ContractTransition: rowOf(f, id, contracts.Running, contract.Terminate, today), QuoteID: uuid.New()})
	refusedWith(t, err, refusal.InvalidQuote)
	late := activities.ContractTermination{ContractTransition: rowOf(f, id, contracts.Running, contract.Terminate, day(t, "2026-03-30")), QuoteID: quote.ID}
	_, err = f.Contracts.Terminate(t.Context(), late)
	refusedWith(t, err, refusal.InvalidQuote)

	p := twice(t, f.Contracts.Terminate, activities.ContractTermination{ContractTransition: rowOf(f, id, contracts.Running, contract.Terminate, today), QuoteID: quote.ID})
	c := load(t, f, id)
	waived := 0
	for _, inst := range c.Schedule.Installments {
		if inst.Status == contracts.InstallmentWaived {
			waived++
		}
	}
	if p.Status != contracts.Terminated || waived != 10 || c.Outcome.Charge.Amount != quote.Total || c.Outcome.Charge.Kind != contracts.ChargeEarlyTermination ||
		events(t, f, id, webhook.ContractTerminated) != 1 {
		t.Errorf("progress %+v, %d waived, contract %+v", p, waived, c)
	}
}

// Cancelling a contract awaiting delivery records one event.
func TestCancellationIsIdempotent(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	id := f.Confirm(t, f.Order(t, "ref-cancel", laptops))[0]
	today := day(t, "2026-02-02")
	p := twice(t, f.Contracts.Transition, rowOf(f, id, contracts.AwaitingDelivery, contract.Cancel, today))
	c := load(t, f, id)
	if p.Status != contracts.Canceled || c.Outcome == nil || c.Outcome.EndedOn != today || c.Outcome.Charge != nil || events(t, f, id, webhook.ContractCanceled) != 1 {
		t.Errorf("progress %+v, contract %+v", p, c)
	}
}

// A contract written before contracts ran (the rent of one unit, started
// on the confirmation day) is opened with its line's rental and assets,
// and reports its shipment.
func TestOpeningALegacyContract(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	orderID := f.Order(t, "ref-legacy", laptops)
	id := f.Confirm(t, orderID)[0]
	// As the code before contracts wrote it, and migration 00090 left it.
	_, err := f.Store.Pool.Exec(t.Context(), `UPDATE rental_contracts SET monthly_net = 3000, monthly_gross = 3570, tax_rate = 0, purchase_net = 0,
		legacy = true WHERE id = $1`, id)
	if err == nil {
		_, err = f.Store.Pool.Exec(t.Context(), "UPDATE order_assets SET contract_id = NULL WHERE order_id = $1", orderID)
	}
	if err != nil {
		t.Fatal(err)
	}
	shipped := f.Ship(t, orderID, "laptop", "SN-L1", "SN-L2")
	if len(shipped.Delivered) != 0 {
		t.Errorf("a legacy contract without its assets was delivered: %v", shipped.Delivered)
	}
	ref := activities.ContractRef{ContractID: id, SellerID: f.SellerID}
	opened, err := f.Contracts.Open(t.Context(), ref)
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.Contracts.Open(t.Context(), ref)
	if err != nil || opened.ShippedAt == nil || !again.ShippedAt.Equal(*opened.ShippedAt) || opened.OrderCanceled || opened.Progress.Assets != 2 {
		t.Fatalf("opened %+v, then %+v (%v)", opened, again, err)
	}
	if time.Since(*opened.ShippedAt) > time.Minute {
		t.Errorf("shipped at %s", opened.ShippedAt)
	}
	row, err := f.Store.GetRentalContract(t.Context(), dbgen.GetRentalContractParams{SellerID: f.SellerID, ID: id})
	if err != nil {
		t.Fatal(err)
	}
	if row.Legacy || row.MonthlyNet != 6000 || row.MonthlyGross != 7140 || row.TaxRate != 1900 || row.PurchaseNet != 240000 {
		t.Errorf("row %+v", row)
	}
}

// A shipment names the contracts whose last assets it shipped.
func TestShipmentsDeliverContracts(t *testing.T) {
	f := contracttest.New(t, testenv.Database(t), nil)
	orderID := f.Order(t, "ref-deliver", laptops, contracttest.Line{Reference: "phone", Quantity: 1, UnitNet: 50000, MonthlyNet: 2000, Months: 24, Rented: true})
	ids := f.Confirm(t, orderID)
	if first := f.Ship(t, orderID, "laptop", "SN-D1"); len(first.Delivered) != 0 || first.Complete {
		t.Errorf("first shipment %+v", first)
	}
	second := f.Ship(t, orderID, "laptop", "SN-D2")
	if len(second.Delivered) != 1 || second.Delivered[0] != ids[0] || second.ShippedAt.IsZero() {
		t.Errorf("second shipment %+v, contracts %v", second, ids)
	}
	if third := f.Ship(t, orderID, "phone", "SN-D3"); len(third.Delivered) != 1 || third.Delivered[0] != ids[1] || !third.Complete {
		t.Errorf("third shipment %+v", third)
	}
}
