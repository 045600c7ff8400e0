package webhook

import (
	"fmt"
	"slices"
	"strings"
)

// EventType names what happened; it is sent in the webhook-event-type header.
type EventType = string

// The event types of the spec, and the ping of the test operation.
const (
	OfferPendingReview EventType = "offer.pending_review"
	OfferAccepted      EventType = "offer.accepted"
	OfferDeclined      EventType = "offer.declined"
	OfferVoided        EventType = "offer.voided"
	OfferExpired       EventType = "offer.expired"
	OrderCreated       EventType = "order.created"
	OrderCanceled      EventType = "order.canceled"
	OrderCompleted     EventType = "order.completed"
	// OfferDiscountAttemptsExceeded is Tenure's own: the offer's customer
	// side had discount codes refused until its budget of failed attempts
	// was spent (package discounts), at most once per offer and window.
	OfferDiscountAttemptsExceeded EventType = "offer.discount_attempts_exceeded"
	// The contract events are Tenure's own (package contracts, workflow
	// contract): the term started with the shipment of the line's last
	// asset; an installment fell due; the notice date came and the
	// end-of-term options are offered; the contract took an extension (by
	// a term, month by month, or month by month without a choice by its
	// end date); it ended by a return or a buy-out; an early termination
	// ended it; the order's cancellation cancelled it before its term.
	ContractStarted        EventType = "contract.started"
	ContractInstallmentDue EventType = "contract.installment_due"
	ContractEnding         EventType = "contract.ending"
	ContractExtended       EventType = "contract.extended"
	ContractEnded          EventType = "contract.ended"
	ContractTerminated     EventType = "contract.terminated"
	ContractCanceled       EventType = "contract.canceled"
	// The collection events (issue 24, package collections and the
	// contract workflow's dunning): a collection of an installment or
	// charge came back unpaid (returned with its reason); the contract
	// owes something failed, for the first time since it last owed
	// nothing failed; a reminder stage came with the contract still in
	// arrears; everything failed is paid again.
	InstallmentFailed       EventType = "installment.failed"
	ContractInArrears       EventType = "contract.in_arrears"
	ContractPaymentReminder EventType = "contract.payment_reminder"
	ContractArrearsCleared  EventType = "contract.arrears_cleared"
	// InvoiceIssued is Tenure's own (package invoicing): an invoice was
	// issued for an order's installments of a month or for a charge; its
	// body is the invoice with the customer's signed link to its PDF.
	InvoiceIssued EventType = "invoice.issued"
	// PayoutSent is Tenure's own (package payouts): a batch's credit
	// transfer file pays the seller for a completed order; its body is the
	// payout.
	PayoutSent EventType = "payout.sent"
	// Ping is sent only by POST /v1/webhook-endpoints/{id}/test, to that
	// endpoint, whatever it subscribes to.
	Ping EventType = "ping"
)

// SubscribableTypes are the event types an endpoint may subscribe to.
var SubscribableTypes = []EventType{
	OfferPendingReview, OfferAccepted, OfferDeclined, OfferVoided, OfferExpired,
	OrderCreated, OrderCanceled, OrderCompleted, OfferDiscountAttemptsExceeded,
	ContractStarted, ContractInstallmentDue, ContractEnding, ContractExtended, ContractEnded, ContractTerminated, ContractCanceled,
	InstallmentFailed, ContractInArrears, ContractPaymentReminder, ContractArrearsCleared,
	InvoiceIssued, PayoutSent,
}

// EventTypes are the event types Tenure emits: the subscribable ones and
// the ping.
var EventTypes = append(slices.Clone(SubscribableTypes), Ping)

// IsEventType reports whether t is an event type Tenure emits.
func IsEventType(t string) bool { return slices.Contains(EventTypes, t) }

// checkSubscriptions refuses unknown or repeated event types, naming the
// first offending value and its position.
func checkSubscriptions(events []string) error {
	for i, e := range events {
		if !slices.Contains(SubscribableTypes, e) {
			return &FieldError{Field: fmt.Sprintf("events[%d]", i),
				Message: fmt.Sprintf("unknown event type %q; known types are %s", e, strings.Join(SubscribableTypes, ", "))}
		}
		if slices.Index(events, e) != i {
			return &FieldError{Field: fmt.Sprintf("events[%d]", i), Message: fmt.Sprintf("event type %q is listed twice", e)}
		}
	}
	return nil
}
