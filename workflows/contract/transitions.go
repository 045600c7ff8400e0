package contract

import (
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/webhook"
	"github.com/tenurehq/tenure/workflows/statemachine"
)

// The triggers of a contract's changes. An update's name is its
// trigger's; the triggers without one are the workflow's own: its clock
// (a due date, the notice date, the end of the term or of a month) and
// what a return found.
var (
	// Open is the confirmation of the order, which writes the contract.
	Open = statemachine.Trigger{Name: "open"}
	// Deliver starts the term: the order's shipment of the line's last
	// asset (the OrderShipped signal), or the sandbox's
	// mark_contract_started (the update, on the contract's today).
	Deliver = statemachine.Trigger{Name: "deliver", Update: "deliver", Verb: "started"}
	// Cancel is the order's cancellation before any shipment (the
	// OrderCanceled signal, or the update).
	Cancel = statemachine.Trigger{Name: "cancel", Update: "cancel", Verb: "canceled"}
	// FallDue is an installment's due date.
	FallDue = statemachine.Trigger{Name: "fall due"}
	// GiveNotice is the notice date: the end-of-term options are offered.
	GiveNotice = statemachine.Trigger{Name: "give notice"}
	// EndWithoutChoice is the day after the end date with no option
	// taken: the contract goes on month by month.
	EndWithoutChoice = statemachine.Trigger{Name: "end of term without a choice"}
	// Grow is the day after the end of the last month of a contract going
	// on month by month: one more month.
	Grow = statemachine.Trigger{Name: "grow by a month"}
	// RecordReturn records assets given back.
	RecordReturn = statemachine.Trigger{Name: "record a return", Update: "record_return", Verb: "returned"}
	// CompleteReturn ends a contract whose assets are all back, once its
	// end date has passed.
	CompleteReturn = statemachine.Trigger{Name: "last asset back after the end date"}
	// BuyOut is the customer's buy-out at the residual value.
	BuyOut = statemachine.Trigger{Name: "buy out", Update: "buy_out", Verb: "bought out"}
	// ExtendByTerm and ExtendMonthly are the extend update's two modes.
	ExtendByTerm  = statemachine.Trigger{Name: "extend by a term", Update: "extend", Verb: "extended"}
	ExtendMonthly = statemachine.Trigger{Name: "extend month by month", Update: "extend", Verb: "extended"}
	// QuoteTermination prices ending the contract early, on its today.
	QuoteTermination = statemachine.Trigger{Name: "quote a termination", Update: "quote_termination", Verb: "quoted for termination"}
	// Terminate accepts a termination quote.
	Terminate = statemachine.Trigger{Name: "terminate", Update: "terminate", Verb: "terminated"}
	// AdvanceClock moves a sandbox contract's clock forward.
	AdvanceClock = statemachine.Trigger{Name: "advance the clock", Update: "advance_clock", Verb: "advanced in time"}
	// SettleCollection applies the bank's notice about a collection (an
	// imported camt.054, or the sandbox's mark_installment_paid and
	// mark_installment_failed): paid, or returned with a reason. Its
	// activity announces what it changed (installment.failed,
	// contract.in_arrears, contract.arrears_cleared).
	SettleCollection = statemachine.Trigger{Name: "settle a collection", Update: "settle_collection", Verb: "settled"}
	// Remind is a reminder stage of the arrears coming (collections.
	// dunning_days after the failure) with the contract still in arrears.
	Remind = statemachine.Trigger{Name: "a reminder stage"}
	// Default is the last reminder stage coming with the contract still
	// in arrears: it waits for an operator.
	Default = statemachine.Trigger{Name: "the last reminder stage"}
	// WriteOff is the operator's write-off of a defaulted contract.
	WriteOff = statemachine.Trigger{Name: "write off", Update: "write_off", Verb: "written off"}
	// TerminateAndClaim is the operator's termination of a defaulted
	// contract, claiming its installments not yet due.
	TerminateAndClaim = statemachine.Trigger{Name: "terminate and claim", Update: "terminate_and_claim", Verb: "terminated"}
)

// Transitions is the contract's state machine. A row whose From and To
// are the same keeps the status (an installment falls due, a return is
// recorded, the clock moves); returned, bought_out, terminated, canceled
// and written_off are final. Dunning (docs/collections.md) moves a
// contract in arrears through its reminder stages to defaulted, where it
// waits for an operator.
var Transitions = statemachine.Table[contracts.Status]{Noun: "contracts", Rows: []statemachine.Transition[contracts.Status]{
	{From: "", Trigger: Open, To: contracts.AwaitingDelivery},
	{From: contracts.AwaitingDelivery, Trigger: Deliver, To: contracts.Running, Event: webhook.ContractStarted},
	{From: contracts.AwaitingDelivery, Trigger: Cancel, To: contracts.Canceled, Event: webhook.ContractCanceled},

	{From: contracts.Running, Trigger: FallDue, To: contracts.Running, Event: webhook.ContractInstallmentDue},
	{From: contracts.Ending, Trigger: FallDue, To: contracts.Ending, Event: webhook.ContractInstallmentDue},
	{From: contracts.Monthly, Trigger: FallDue, To: contracts.Monthly, Event: webhook.ContractInstallmentDue},

	{From: contracts.Running, Trigger: GiveNotice, To: contracts.Ending, Event: webhook.ContractEnding},
	{From: contracts.Ending, Trigger: EndWithoutChoice, To: contracts.Monthly, Event: webhook.ContractExtended},
	{From: contracts.Monthly, Trigger: Grow, To: contracts.Monthly},

	{From: contracts.Ending, Trigger: RecordReturn, To: contracts.Ending},
	{From: contracts.Monthly, Trigger: RecordReturn, To: contracts.Monthly},
	{From: contracts.Ending, Trigger: CompleteReturn, To: contracts.Returned, Event: webhook.ContractEnded},
	{From: contracts.Monthly, Trigger: CompleteReturn, To: contracts.Returned, Event: webhook.ContractEnded},
	{From: contracts.Ending, Trigger: BuyOut, To: contracts.BoughtOut, Event: webhook.ContractEnded},
	{From: contracts.Monthly, Trigger: BuyOut, To: contracts.BoughtOut, Event: webhook.ContractEnded},
	{From: contracts.Ending, Trigger: ExtendByTerm, To: contracts.Running, Event: webhook.ContractExtended},
	{From: contracts.Monthly, Trigger: ExtendByTerm, To: contracts.Running, Event: webhook.ContractExtended},
	{From: contracts.Ending, Trigger: ExtendMonthly, To: contracts.Monthly, Event: webhook.ContractExtended},

	{From: contracts.Running, Trigger: QuoteTermination, To: contracts.Running},
	{From: contracts.Ending, Trigger: QuoteTermination, To: contracts.Ending},
	{From: contracts.Monthly, Trigger: QuoteTermination, To: contracts.Monthly},
	{From: contracts.Running, Trigger: Terminate, To: contracts.Terminated, Event: webhook.ContractTerminated},
	{From: contracts.Ending, Trigger: Terminate, To: contracts.Terminated, Event: webhook.ContractTerminated},
	{From: contracts.Monthly, Trigger: Terminate, To: contracts.Terminated, Event: webhook.ContractTerminated},

	{From: contracts.AwaitingDelivery, Trigger: AdvanceClock, To: contracts.AwaitingDelivery},
	{From: contracts.Running, Trigger: AdvanceClock, To: contracts.Running},
	{From: contracts.Ending, Trigger: AdvanceClock, To: contracts.Ending},
	{From: contracts.Monthly, Trigger: AdvanceClock, To: contracts.Monthly},
	{From: contracts.Defaulted, Trigger: AdvanceClock, To: contracts.Defaulted},

	{From: contracts.Running, Trigger: SettleCollection, To: contracts.Running},
	{From: contracts.Ending, Trigger: SettleCollection, To: contracts.Ending},
	{From: contracts.Monthly, Trigger: SettleCollection, To: contracts.Monthly},
	{From: contracts.Defaulted, Trigger: SettleCollection, To: contracts.Defaulted},
	{From: contracts.Running, Trigger: Remind, To: contracts.Running, Event: webhook.ContractPaymentReminder},
	{From: contracts.Ending, Trigger: Remind, To: contracts.Ending, Event: webhook.ContractPaymentReminder},
	{From: contracts.Monthly, Trigger: Remind, To: contracts.Monthly, Event: webhook.ContractPaymentReminder},
	{From: contracts.Running, Trigger: Default, To: contracts.Defaulted, Event: webhook.ContractPaymentReminder},
	{From: contracts.Ending, Trigger: Default, To: contracts.Defaulted, Event: webhook.ContractPaymentReminder},
	{From: contracts.Monthly, Trigger: Default, To: contracts.Defaulted, Event: webhook.ContractPaymentReminder},
	{From: contracts.Defaulted, Trigger: WriteOff, To: contracts.WrittenOff},
	{From: contracts.Defaulted, Trigger: TerminateAndClaim, To: contracts.Terminated, Event: webhook.ContractTerminated},
}}

// Opening is the row of a contract's creation: the status it starts in.
func Opening() statemachine.Transition[contracts.Status] { return Transitions.Must("", Open) }

// Final reports whether a contract's status is its last.
func Final(s contracts.Status) bool { return Transitions.Final(s) }
