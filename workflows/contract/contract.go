// Package contract is the entity workflow of one rental contract: from the
// confirmation of its order, through the term that starts with the
// shipment of its line's last asset, to its end by a return, a buy-out, an
// early termination or a cancellation, every change of the contract
// happens here, through the one transition table of transitions.go.
//
// # Time
//
// A contract counts in civil days of one location (Input.Timezone): its
// day's installments, notice and end fire at that day's midnight there.
// Its clock is the workflow's time plus an offset that only the sandbox
// moves (the advance_clock update), so one contract can live 36 months in
// seconds while the others and real time are untouched. The workflow sleeps
// on a durable timer until the next thing to do, raced against every
// change (updates, the order's signals, the clock); when it wakes it
// catches up, in date order, with everything whose day has come, each
// through an idempotent local activity: a worker that was down while days
// passed skips nothing and makes nothing due twice.
//
// # Runs
//
// The schedule lives in PostgreSQL; the workflow keeps only the status, the
// clock's offset and the few dates of the contract's progress, and
// continues as new after a year of changes the clock made, so every
// history stays short.
package contract

import (
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/civil"
)

// TaskQueue is the queue contract workflows and their activities run on.
const TaskQueue = "contracts"

// WorkflowID names the workflow of one contract.
func WorkflowID(contractID uuid.UUID) string { return "contract/" + contractID.String() }

// Input starts a contract workflow; the contract's row exists (the
// order's acceptance wrote it).
type Input struct {
	ContractID uuid.UUID
	SellerID   uuid.UUID
	Settings   Settings
	// State is set when the run continues an earlier one; a first run
	// opens the contract.
	State *State
}

// Settings are what a contract takes from its deployment when its
// workflow starts, and keeps for its life.
type Settings struct {
	// Timezone names the location whose days the contract counts in
	// (config contracts.timezone).
	Timezone string
	// Sandbox lets the advance_clock update move the contract's clock.
	Sandbox bool
	// DunningDays are the reminder stages in days after a failure
	// (collections.dunning_days); none takes the defaults, as contracts
	// started before collections do.
	DunningDays []int
}

// defaultDunningDays are collections.dunning_days' defaults.
var defaultDunningDays = []int{7, 14, 28}

// dunningDays are the contract's reminder stages.
func (s Settings) dunningDays() []int {
	if len(s.DunningDays) == 0 {
		return defaultDunningDays
	}
	return s.DunningDays
}

// State is what the workflow knows between changes; it survives
// continue-as-new.
type State struct {
	Status contracts.Status
	// ClockOffset is how far the contract's clock is ahead of the
	// workflow's time.
	ClockOffset time.Duration
	Progress    activities.ContractProgress
	// Arrears are set while the contract owes a failed installment.
	Arrears *Arrears `json:",omitempty"`
}

// Arrears are a contract's time in arrears: since the day an installment
// failed, through its reminder stages (Days after Since; Stage of them
// taken), the last of which defaults the contract.
type Arrears struct {
	Since civil.Date
	Days  []int
	Stage int
}

// CollectionRequest is the argument of the settle_collection update: the
// bank's notice about one of the contract's collections.
type CollectionRequest struct {
	Notice activities.CollectionNotice
}

// CollectionAnswer is what settle_collection answers: whether the notice
// changed the collection, and whether the contract is in arrears after
// it.
type CollectionAnswer struct {
	Answer
	Changed   bool
	InArrears bool
}

// The signals the order's workflow sends its contracts: the shipment of a
// contract's last asset, and the order's cancellation. A signal is durable
// without a contract worker running, and one the contract's status no
// longer allows is ignored.
const (
	OrderShipped  = "order_shipped"
	OrderCanceled = "order_canceled"
)

// ShippedSignal is the argument of OrderShipped: when the shipment that
// shipped the contract's last asset was recorded.
type ShippedSignal struct {
	ShippedAt time.Time
}

// ReturnRequest is the argument of the record_return update: the assets
// given back, by serial number with the return's tracking link.
type ReturnRequest struct {
	Assets []activities.ReturnedAsset
}

// ExtendRequest is the argument of the extend update.
type ExtendRequest struct {
	Mode contracts.ExtensionMode
}

// TerminateRequest is the argument of the terminate update: the quote
// accepted.
type TerminateRequest struct {
	QuoteID uuid.UUID
}

// AdvanceClockRequest is the argument of the advance_clock update: move
// the clock by Months, or to the start of the day To, after the contract's
// today; exactly one of them.
type AdvanceClockRequest struct {
	Months int
	To     *civil.Date
}

// Answer is what an update answers once its change is persisted: the
// contract's status and the day of its clock. Read the contract itself
// with contracts.Load.
type Answer struct {
	Status contracts.Status
	Today  civil.Date
}

// Result is how the workflow ended.
type Result struct {
	Status contracts.Status
}
