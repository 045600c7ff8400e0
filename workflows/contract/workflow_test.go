package contract_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/workflows/contract"
)

// sameKinds checks the sequence of a contract's event types.
func sameKinds(t *testing.T, events []event, want ...string) {
	t.Helper()
	if got := kinds(events); !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
}

// A term started by its shipment on 31 January runs by its timers: the
// installments fall due on the 31st or the month's last day, the notice
// comes 90 days before the end, and with no choice by the end the contract
// goes on month by month, one month at a time, until it is bought out.
func TestNoChoiceGoesOnMonthByMonth(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	l.shipped(on(t, "2026-01-31"))
	buyOut := l.send(on(t, "2027-03-15"), contract.BuyOut.Update)
	l.run()

	if got := buyOut.answer(t); got.Status != contracts.BoughtOut || got.Today != date(t, "2027-03-15") || l.result.Status != contracts.BoughtOut {
		t.Errorf("buy-out answered %+v, the workflow ended %+v", got, l.result)
	}
	c := l.stored()
	events := l.events()
	sameKinds(t, events, webhook.ContractStarted, "due×10", webhook.ContractEnding, "due×2", webhook.ContractExtended, "due×2", webhook.ContractEnded)
	checkInstallmentEvents(t, events, c)
	if n := len(c.Schedule.Installments); n != 14 || c.Schedule.Installments[13].DueDate != date(t, "2027-02-28") ||
		c.Schedule.Installments[13].Period.To != date(t, "2027-03-30") || c.Schedule.Installments[13].Amount != c.Rental.Monthly {
		t.Errorf("schedule %+v", c.Schedule)
	}
	if *c.EndDate != date(t, "2027-01-30") || *c.NoticeDate != date(t, "2026-11-01") || len(c.Extensions) != 1 || !c.Extensions[0].WithoutChoice ||
		c.Extensions[0].On != date(t, "2027-01-31") || c.Outcome.Charge.Amount != pricing.FromNet("EUR", 24000, contracttest.TaxRate) {
		t.Errorf("contract %+v", c)
	}
	if ending := events[11].contract; ending.Status != contracts.Ending || ending.EndOfTerm == nil || ending.EndOfTerm.BuyOut != c.Outcome.Charge.Amount {
		t.Errorf("contract.ending sent %+v", ending)
	}
	// Twelve changes of the clock (ten installments, the notice, the
	// eleventh) end the first run; the next carries the state on.
	if len(l.runs) == 0 || l.runs[0].State.Status != contracts.Ending || *l.runs[0].State.Progress.NextDue != date(t, "2026-12-31") {
		t.Errorf("the contract did not continue as new with its state: %+v", l.runs[0].State)
	}
}

// A return is refused while the term runs; assets back before the end
// date end the contract the day after it, as returned.
func TestReturnAfterTheEndDate(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	l.shipped(on(t, "2026-01-31"), "SN-1", "SN-2")
	early := l.send(on(t, "2026-06-01"), contract.RecordReturn.Update, returned("SN-1"))
	unknown := l.send(on(t, "2026-12-01"), contract.RecordReturn.Update, returned("SN-9"))
	first := l.send(on(t, "2026-12-02"), contract.RecordReturn.Update, returned("SN-1"))
	second := l.send(on(t, "2027-01-10"), contract.RecordReturn.Update, returned("SN-2"))
	l.run()

	early.refused(t, "contracts with status=running cannot be returned")
	unknown.failed(t, refusal.InvalidReturn)
	if a, b := first.answer(t), second.answer(t); a.Status != contracts.Ending || b.Status != contracts.Ending {
		t.Errorf("returns answered %+v and %+v: the contract ends after its end date", a, b)
	}
	c := l.stored()
	sameKinds(t, l.events(), webhook.ContractStarted, "due×10", webhook.ContractEnding, "due×2", webhook.ContractEnded)
	if l.result.Status != contracts.Returned || c.Outcome.EndedOn != date(t, "2027-01-31") || c.Outcome.Charge != nil ||
		c.Assets[1].Return.ReturnedOn != date(t, "2027-01-10") || len(c.Schedule.Installments) != 12 {
		t.Errorf("result %+v, contract %+v", l.result, c)
	}
}

// returned is a return of one asset.
func returned(serial string) contract.ReturnRequest {
	return contract.ReturnRequest{Assets: []activities.ReturnedAsset{{SerialNumber: serial, TrackingURL: "https://tracking.example/back/" + serial}}}
}

// A contract going on month by month ends as soon as its last asset is
// back: its end date has passed.
func TestReturnWhileMonthlyEndsAtOnce(t *testing.T) {
	l := newLife(t, "2026-01-31", contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 90000, MonthlyNet: 2500, Months: 12, Rented: true})
	l.shipped(on(t, "2026-01-31"), "SN-M")
	back := l.send(on(t, "2027-02-10"), contract.RecordReturn.Update, returned("SN-M"))
	l.run()
	if got := back.answer(t); got.Status != contracts.Returned {
		t.Errorf("the return answered %+v", got)
	}
	sameKinds(t, l.events(), webhook.ContractStarted, "due×10", webhook.ContractEnding, "due×2", webhook.ContractExtended, "due×1", webhook.ContractEnded)
	if c := l.stored(); c.Outcome.EndedOn != date(t, "2027-02-10") || len(c.Schedule.Installments) != 13 {
		t.Errorf("contract %+v", c)
	}
}

// A term extension renews the term at the reduced rate, with a new notice;
// a monthly extension at the second notice goes on at that rate; a monthly
// contract cannot be extended month by month again.
func TestExtensions(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	l.shipped(on(t, "2026-01-31"))
	early := l.send(on(t, "2026-06-01"), contract.ExtendByTerm.Update, contract.ExtendRequest{Mode: contracts.ExtendByTerm})
	byTerm := l.send(on(t, "2026-11-15"), contract.ExtendByTerm.Update, contract.ExtendRequest{Mode: contracts.ExtendByTerm})
	monthly := l.send(on(t, "2027-12-01"), contract.ExtendByTerm.Update, contract.ExtendRequest{Mode: contracts.ExtendMonthly})
	again := l.send(on(t, "2028-02-01"), contract.ExtendByTerm.Update, contract.ExtendRequest{Mode: contracts.ExtendMonthly})
	unknown := l.send(on(t, "2028-02-02"), contract.ExtendByTerm.Update, contract.ExtendRequest{Mode: "yearly"})
	l.send(on(t, "2028-02-10"), contract.BuyOut.Update)
	l.run()

	early.refused(t, "contracts with status=running cannot be extended")
	again.refused(t, "contracts with status=monthly cannot be extended in mode monthly")
	unknown.refused(t, `an extension's mode is "term" or "monthly", not "yearly"`)
	if a, b := byTerm.answer(t), monthly.answer(t); a.Status != contracts.Running || b.Status != contracts.Monthly {
		t.Errorf("extensions answered %+v and %+v", a, b)
	}
	c := l.stored()
	events := l.events()
	sameKinds(t, events, webhook.ContractStarted, "due×10", webhook.ContractEnding, webhook.ContractExtended, "due×12", webhook.ContractEnding,
		"due×1", webhook.ContractExtended, "due×2", webhook.ContractEnded)
	checkInstallmentEvents(t, events, c)
	reduced := pricing.FromNet("EUR", 4200, contracttest.TaxRate)
	if len(c.Schedule.Installments) != 25 || c.Schedule.Installments[11].Amount != c.Rental.Monthly || c.Schedule.Installments[12].Amount != reduced ||
		c.Schedule.Installments[24].Amount != reduced || *c.EndDate != date(t, "2028-01-30") || *c.NoticeDate != date(t, "2027-11-01") {
		t.Errorf("schedule %+v, end %v, notice %v", c.Schedule, c.EndDate, c.NoticeDate)
	}
	if len(c.Extensions) != 2 || c.Extensions[0].Mode != contracts.ExtendByTerm || c.Extensions[1].Mode != contracts.ExtendMonthly || c.Extensions[1].WithoutChoice {
		t.Errorf("extensions %+v", c.Extensions)
	}
}

// A quote covers the installments not yet due, discounted; accepting it
// waives them, charges its total and ends the contract as terminated; an
// unknown quote is refused.
func TestEarlyTermination(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	l.shipped(on(t, "2026-01-31"))
	quote := l.send(on(t, "2026-03-15"), contract.QuoteTermination.Update)
	unknown := l.send(on(t, "2026-03-16"), contract.Terminate.Update, contract.TerminateRequest{QuoteID: uuid.New()})
	accept := l.send(on(t, "2026-03-20"), contract.Terminate.Update)
	var quoted contracts.StoredQuote
	accept.before = func() {
		quote.decode(t, &quoted)
		accept.args = []any{contract.TerminateRequest{QuoteID: quoted.ID}}
	}
	l.run()

	unknown.failed(t, refusal.InvalidQuote)
	if got := accept.answer(t); got.Status != contracts.Terminated {
		t.Errorf("termination answered %+v", got)
	}
	if quoted.Date != date(t, "2026-03-15") || len(quoted.Installments) != 10 || quoted.RemainingNet != 60000 || quoted.DiscountedNet >= 60000 {
		t.Errorf("quote %+v", quoted)
	}
	c := l.stored()
	sameKinds(t, l.events(), webhook.ContractStarted, "due×2", webhook.ContractTerminated)
	for i, inst := range c.Schedule.Installments {
		if want := map[bool]contracts.InstallmentStatus{true: contracts.InstallmentDue, false: contracts.InstallmentWaived}[i < 2]; inst.Status != want {
			t.Errorf("installment %d is %s, want %s", inst.Number, inst.Status, want)
		}
	}
	if c.Outcome.Status != contracts.Terminated || c.Outcome.Charge.Amount != quoted.Total || c.Outcome.EndedOn != date(t, "2026-03-20") {
		t.Errorf("outcome %+v", c.Outcome)
	}
}

// The order's cancellation before any shipment cancels the contract.
func TestCancellationBeforeShipment(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	l.signal(on(t, "2026-02-02"), contract.OrderCanceled, nil)
	l.run()
	c := l.stored()
	sameKinds(t, l.events(), webhook.ContractCanceled)
	if l.result.Status != contracts.Canceled || c.Schedule != nil || c.Outcome.EndedOn != date(t, "2026-02-02") {
		t.Errorf("result %+v, contract %+v", l.result, c)
	}
}

// Every update the status does not allow is refused before anything is
// recorded, in the spec's words; so are clock moves backwards and the
// order's signals a started contract no longer expects.
func TestRefusals(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	at := on(t, "2026-02-01")
	next := func() time.Time { at = at.Add(time.Hour); return at }
	refusals := map[*action]string{
		l.send(next(), contract.BuyOut.Update):                                                                     "contracts with status=awaiting_delivery cannot be bought out",
		l.send(next(), contract.Terminate.Update, contract.TerminateRequest{QuoteID: uuid.New()}):                  "contracts with status=awaiting_delivery cannot be terminated",
		l.send(next(), contract.ExtendByTerm.Update, contract.ExtendRequest{Mode: contracts.ExtendByTerm}):         "contracts with status=awaiting_delivery cannot be extended",
		l.send(next(), contract.RecordReturn.Update, returned("SN-1")):                                             "contracts with status=awaiting_delivery cannot be returned",
		l.send(next(), contract.QuoteTermination.Update):                                                           "contracts with status=awaiting_delivery cannot be quoted for termination",
		l.send(next(), contract.AdvanceClock.Update, contract.AdvanceClockRequest{}):                               "advance the clock by months or to a day, one of them",
		l.send(next(), contract.AdvanceClock.Update, contract.AdvanceClockRequest{Months: 121}):                    "the clock moves by 1 to 120 months, not 121",
		l.send(next(), contract.AdvanceClock.Update, contract.AdvanceClockRequest{To: new(date(t, "2026-01-01"))}): "the contract's clock reads 2026-02-01 and moves only forward, not to 2026-01-01",
	}
	start := l.send(next(), contract.Deliver.Update)
	refusals[l.send(next(), contract.Deliver.Update)] = "contracts with status=running cannot be started"
	refusals[l.send(next(), contract.Cancel.Update)] = "contracts with status=running cannot be canceled"
	refusals[l.send(next(), contract.BuyOut.Update)] = "contracts with status=running cannot be bought out"
	l.signal(next(), contract.OrderCanceled, nil)
	l.shipped(next())
	l.send(next(), contract.AdvanceClock.Update, contract.AdvanceClockRequest{To: new(date(t, "2026-12-01"))})
	l.send(next(), contract.BuyOut.Update)
	l.run()

	for a, want := range refusals {
		a.refused(t, want)
	}
	if got := start.answer(t); got.Status != contracts.Running || got.Today != date(t, "2026-02-01") {
		t.Errorf("mark started answered %+v", got)
	}
	if c := l.stored(); l.result.Status != contracts.BoughtOut || c.Schedule.Term.Start != date(t, "2026-02-01") {
		t.Errorf("result %+v, contract %+v", l.result, c)
	}
}

// A production contract has no clock to move.
func TestNoClockOutsideTheSandbox(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	l.input.Settings.Sandbox = false
	advance := l.send(on(t, "2026-02-01"), contract.AdvanceClock.Update, contract.AdvanceClockRequest{Months: 1})
	l.signal(on(t, "2026-02-02"), contract.OrderCanceled, nil)
	l.run()
	advance.refused(t, "only sandbox contracts have a clock to advance")
}

// The sandbox clock moves a contract 14 months in one update, which
// answers once everything on the way happened in date order, each change
// on its own day: the same events the timers make over those months.
func TestAdvanceClockFiresEverythingInOrder(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	l.send(on(t, "2026-01-31"), contract.Deliver.Update)
	advance := l.send(on(t, "2026-02-01"), contract.AdvanceClock.Update, contract.AdvanceClockRequest{Months: 14})
	backwards := l.send(on(t, "2026-02-02"), contract.AdvanceClock.Update, contract.AdvanceClockRequest{To: new(date(t, "2027-03-31"))})
	l.send(on(t, "2026-02-03"), contract.BuyOut.Update)
	l.run()

	if got := advance.answer(t); got.Status != contracts.Monthly || got.Today != date(t, "2027-04-01") {
		t.Errorf("the advance answered %+v", got)
	}
	backwards.refused(t, "the contract's clock reads 2027-04-02 and moves only forward, not to 2027-03-31")
	c := l.stored()
	events := l.events()
	sameKinds(t, events, webhook.ContractStarted, "due×10", webhook.ContractEnding, "due×2", webhook.ContractExtended, "due×3", webhook.ContractEnded)
	checkInstallmentEvents(t, events, c)
	if c.Outcome.EndedOn != date(t, "2027-04-03") || c.ClockOffset < 365*24*time.Hour {
		t.Errorf("outcome %+v, clock offset %s", c.Outcome, c.ClockOffset)
	}
	// The clock jumped past the end date; the month-by-month continuation
	// is recorded on the day after it all the same.
	if len(c.Extensions) != 1 || !c.Extensions[0].WithoutChoice || c.Extensions[0].On != date(t, "2027-01-31") {
		t.Errorf("extensions %+v, want the continuation without a choice on 2027-01-31", c.Extensions)
	}
}

// A 36-month contract with a 12-month extension lives its four years and
// more in the test environment's skipped time: every installment falls
// due once, in order, the notice comes twice, and each run's history
// stays short. The wall time is reported, not asserted.
func TestThirtySixMonthsWithAnExtension(t *testing.T) {
	l := newLife(t, "2026-01-31", contracttest.Line{Reference: "laptop", Quantity: 1, UnitNet: 150000, MonthlyNet: 4500, Months: 36, Rented: true})
	l.shipped(on(t, "2026-01-31"))
	l.send(on(t, "2028-11-15"), contract.ExtendByTerm.Update, contract.ExtendRequest{Mode: contracts.ExtendByTerm})
	l.send(on(t, "2029-12-01"), contract.BuyOut.Update)
	began := time.Now()
	l.run()
	wall := time.Since(began)
	lived := l.end.Sub(l.start)
	t.Logf("a 36-month contract with an extension lived %.1f years of workflow time in %s of wall time over %d runs", lived.Hours()/24/365, wall, len(l.runs)+1)
	if ratio := lived.Seconds() / wall.Seconds(); ratio < 1e5 {
		t.Errorf("skipped time ran only %.0f times faster than the wall clock", ratio)
	}
	c := l.stored()
	events := l.events()
	sameKinds(t, events, webhook.ContractStarted, "due×34", webhook.ContractEnding, webhook.ContractExtended, "due×12", webhook.ContractEnding, "due×2", webhook.ContractEnded)
	checkInstallmentEvents(t, events, c)
	if l.result.Status != contracts.BoughtOut || len(c.Schedule.Installments) != 48 || len(l.runs) < 3 {
		t.Errorf("result %+v, %d installments, %d runs", l.result, len(c.Schedule.Installments), len(l.runs)+1)
	}
}

// A contract that chose month by month before its end date, and whose
// assets are all back before it, ends on the day after the end date
// instead of growing.
func TestReturnAfterAMonthlyChoice(t *testing.T) {
	l := newLife(t, "2026-01-31", laptops)
	l.shipped(on(t, "2026-01-31"), "SN-1", "SN-2")
	l.send(on(t, "2026-11-10"), contract.ExtendByTerm.Update, contract.ExtendRequest{Mode: contracts.ExtendMonthly})
	back := l.send(on(t, "2026-12-15"), contract.RecordReturn.Update, contract.ReturnRequest{Assets: []activities.ReturnedAsset{
		{SerialNumber: "SN-1", TrackingURL: "https://tracking.example/back/1"}, {SerialNumber: "SN-2", TrackingURL: "https://tracking.example/back/2"},
	}})
	l.run()
	if got := back.answer(t); got.Status != contracts.Monthly {
		t.Errorf("the return answered %+v: the contract ends after its end date", got)
	}
	c := l.stored()
	sameKinds(t, l.events(), webhook.ContractStarted, "due×10", webhook.ContractEnding, webhook.ContractExtended, "due×2", webhook.ContractEnded)
	if l.result.Status != contracts.Returned || c.Outcome.EndedOn != date(t, "2027-01-31") || len(c.Schedule.Installments) != 12 {
		t.Errorf("result %+v, contract %+v", l.result, c)
	}
}
