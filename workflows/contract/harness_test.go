package contract_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/internal/testing/contracttest"
	"github.com/tenurehq/tenure/internal/testing/testenv"
	"github.com/tenurehq/tenure/workflows/contract"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// berlin is the contracts' location in the tests.
var berlin = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return loc
}()

// settings are a sandbox deployment's in Berlin.
var settings = contract.Settings{Timezone: "Europe/Berlin", Sandbox: true}

// laptops are two laptops rented for 12 months at 30.00 net a unit.
var laptops = contracttest.Line{Reference: "laptop", Quantity: 2, UnitNet: 120000, MonthlyNet: 3000, Months: 12, Rented: true}

// action is something that happens to a contract at a moment of the
// workflow's time: a signal, or an update whose outcome it keeps.
type action struct {
	at     time.Time
	signal string
	update string
	args   []any
	// before runs just before the signal or update is sent (a shipment
	// the test records in the database, say).
	before func()
	// done is set once sent; the update's outcome follows.
	done     bool
	rejected error
	err      error
	result   any
}

// decode reads an update's result into out.
func (a *action) decode(t *testing.T, out any) {
	t.Helper()
	if a.rejected != nil || a.err != nil || a.result == nil {
		t.Fatalf("update %s at %s: refused %v, failed %v", a.update, a.at, a.rejected, a.err)
	}
	if v, ok := a.result.(converter.EncodedValue); ok {
		if err := v.Get(out); err != nil {
			t.Fatal(err)
		}
		return
	}
	raw, err := json.Marshal(a.result)
	if err == nil {
		err = json.Unmarshal(raw, out)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// life runs a contract's workflow in the test environment's skipped time,
// from a moment on, through its actions, following its runs as it
// continues as new, until it ends.
type life struct {
	t       *testing.T
	f       *contracttest.Fixture
	orderID uuid.UUID
	input   contract.Input
	start   time.Time
	actions []*action
	// runs are the inputs of the runs after the first; result is the last
	// run's.
	runs   []contract.Input
	result contract.Result
	// end is the workflow's time when the last run ended.
	end time.Time
}

// newLife writes a confirmed order of lines and the first run's input of
// its first contract, starting on a day in Berlin at 09:00.
func newLife(t *testing.T, day string, lines ...contracttest.Line) *life {
	t.Helper()
	f := contracttest.New(t, testenv.Database(t), nil)
	orderID := f.Order(t, "ref-"+t.Name(), lines...)
	ids := f.Confirm(t, orderID)
	d := date(t, day)
	start := time.Date(d.Year(), d.Month(), d.Day(), 9, 0, 0, 0, berlin)
	return &life{t: t, f: f, orderID: orderID, start: start, input: contract.Input{ContractID: ids[0], SellerID: f.SellerID, Settings: settings}}
}

// date parses a date of the tests.
func date(t testing.TB, s string) civil.Date {
	t.Helper()
	d, err := civil.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// on is 12:00 in Berlin on a day.
func on(t testing.TB, day string) time.Time {
	d := date(t, day)
	return time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, berlin)
}

// signal adds a signal at a moment.
func (l *life) signal(at time.Time, name string, arg any) *action {
	a := &action{at: at, signal: name, args: []any{arg}}
	l.actions = append(l.actions, a)
	return a
}

// send adds an update at a moment.
func (l *life) send(at time.Time, name string, args ...any) *action {
	a := &action{at: at, update: name, args: args}
	l.actions = append(l.actions, a)
	return a
}

// shipped ships the contract's assets at a moment: the shipment is
// recorded, and the order tells the contract.
func (l *life) shipped(at time.Time, serials ...string) {
	a := l.signal(at, contract.OrderShipped, contract.ShippedSignal{ShippedAt: at})
	a.before = func() {
		if len(serials) > 0 {
			l.f.Ship(l.t, l.orderID, "laptop", serials...)
		}
	}
}

// run lives the contract to its end.
func (l *life) run() {
	l.t.Helper()
	in, start := l.input, l.start
	for range 20 {
		var suite testsuite.WorkflowTestSuite
		suite.SetLogger(log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
		env := suite.NewTestWorkflowEnvironment()
		env.SetStartTime(start)
		env.SetWorkflowRunTimeout(20 * 365 * 24 * time.Hour)
		contract.Register(env, l.f.Contracts)
		for _, a := range l.actions {
			if a.done || a.at.Before(start) {
				continue
			}
			env.RegisterDelayedCallback(func() { l.act(env, a) }, a.at.Sub(start))
		}
		env.ExecuteWorkflow(contract.Contract, in)
		err := env.GetWorkflowError()
		var next *workflow.ContinueAsNewError
		if errors.As(err, &next) {
			in = contract.Input{}
			if err := converter.GetDefaultDataConverter().FromPayloads(next.Input, &in); err != nil {
				l.t.Fatal(err)
			}
			l.runs = append(l.runs, in)
			start = env.Now()
			continue
		}
		if err != nil {
			l.t.Fatalf("the workflow failed: %v", err)
		}
		if err := env.GetWorkflowResult(&l.result); err != nil {
			l.t.Fatal(err)
		}
		l.end = env.Now()
		return
	}
	l.t.Fatal("the contract did not end in 20 runs")
}

func (l *life) act(env *testsuite.TestWorkflowEnvironment, a *action) {
	a.done = true
	if a.before != nil {
		a.before()
	}
	if a.signal != "" {
		env.SignalWorkflow(a.signal, a.args[0])
		return
	}
	env.UpdateWorkflow(a.update, uuid.NewString(), &testsuite.TestUpdateCallback{
		OnReject:   func(err error) { a.rejected = err },
		OnAccept:   func() {},
		OnComplete: func(result any, err error) { a.err, a.result = err, result },
	}, a.args...)
}

// answer is an update's answer.
func (a *action) answer(t *testing.T) contract.Answer {
	t.Helper()
	var out contract.Answer
	a.decode(t, &out)
	return out
}

// refused checks an update's validator refused it with a text.
func (a *action) refused(t *testing.T, want string) {
	t.Helper()
	var app *temporal.ApplicationError
	if !errors.As(a.rejected, &app) || app.Message() != want {
		t.Errorf("update %s at %s: want the refusal %q, got rejected=%v err=%v", a.update, a.at, want, a.rejected, a.err)
	}
}

// failed checks an update was accepted but its change refused, of a kind.
func (a *action) failed(t *testing.T, kind refusal.Kind) {
	t.Helper()
	var app *temporal.ApplicationError
	if !errors.As(a.err, &app) || app.Type() != string(kind) {
		t.Errorf("update %s at %s: want a %s failure, got rejected=%v err=%v", a.update, a.at, kind, a.rejected, a.err)
	}
}

// stored is the contract as PostgreSQL holds it.
func (l *life) stored() contracts.Stored {
	l.t.Helper()
	s, err := contracts.Load(l.t.Context(), l.f.Store.Queries, l.f.SellerID, l.input.ContractID)
	if err != nil {
		l.t.Fatal(err)
	}
	return s
}

// event is a contract event as recorded: its type and payload.
type event struct {
	kind     string
	contract contracts.Stored
}

// events are the contract's events in the order they were recorded.
func (l *life) events() []event {
	l.t.Helper()
	rows, err := l.f.Store.Pool.Query(l.t.Context(), "SELECT type, payload FROM events WHERE object_id = $1 ORDER BY created_at, id", l.input.ContractID)
	if err != nil {
		l.t.Fatal(err)
	}
	defer rows.Close()
	var out []event
	for rows.Next() {
		var e event
		var raw []byte
		if err := rows.Scan(&e.kind, &raw); err != nil {
			l.t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &e.contract); err != nil {
			l.t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		l.t.Fatal(err)
	}
	return out
}

// kinds are the types of events, a run of n installment_due events
// written as one "due×n".
func kinds(events []event) []string {
	var out []string
	run := 0
	for i, e := range events {
		if e.kind != webhook.ContractInstallmentDue {
			out = append(out, e.kind)
			continue
		}
		run++
		if i+1 == len(events) || events[i+1].kind != webhook.ContractInstallmentDue {
			out = append(out, fmt.Sprintf("due×%d", run))
			run = 0
		}
	}
	return out
}

// checkInstallmentEvents checks that every installment that is not
// scheduled fell due once, in order: the k-th installment_due event shows
// the contract with k installments no longer scheduled.
func checkInstallmentEvents(t *testing.T, events []event, final contracts.Stored) {
	t.Helper()
	k := 0
	for _, e := range events {
		if e.kind != webhook.ContractInstallmentDue {
			continue
		}
		k++
		fallen := slices.IndexFunc(e.contract.Schedule.Installments, func(i contracts.Installment) bool { return i.Status == contracts.InstallmentScheduled })
		if fallen == -1 {
			fallen = len(e.contract.Schedule.Installments)
		}
		if fallen != k || e.contract.Schedule.Installments[k-1].Status != contracts.InstallmentDue {
			t.Errorf("installment_due event %d shows %d installments fallen due", k, fallen)
		}
	}
	due := 0
	for _, inst := range final.Schedule.Installments {
		if inst.Status == contracts.InstallmentDue {
			due++
		}
	}
	if due != k {
		t.Errorf("%d installments are due, %d events announced them", due, k)
	}
}
