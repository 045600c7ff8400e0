// Package refusal names why Tenure refuses a request it understood: input
// beyond its limits (Invalid, answered 400), or a change the rules or the
// current state do not allow (Error, answered 422), of a fixed set of
// kinds. Builders, workflows and activities refuse with these; the API
// answers them in the contract's shapes, and anything else a request runs
// into is a fault (500), logged with the request id.
package refusal

import (
	"fmt"

	"github.com/tenurehq/tenure/domain/catalog"
)

// Invalid is a value the contract's schema cannot refuse (a length, a
// range, an inconsistent price); its message names the field.
type Invalid struct{ Message string }

// Error is the message, which names the field.
func (e *Invalid) Error() string { return e.Message }

// Invalidf is an Invalid with a formatted message.
func Invalidf(format string, args ...any) *Invalid {
	return &Invalid{Message: fmt.Sprintf(format, args...)}
}

// Kind is why a change is refused. The kinds of offer payloads are the
// names the contract's OfferError carries.
type Kind string

// The kinds of refusal.
const (
	// StatusNotAllowed: the offer's or order's status does not allow the
	// change ("offers with status=created cannot be declined").
	StatusNotAllowed Kind = "StatusNotAllowed"
	// InvalidShipment: a shipment does not fit its order.
	InvalidShipment Kind = "InvalidShipment"
	// InvalidSuperseding: a void names no other offer of the seller.
	InvalidSuperseding Kind = "InvalidSuperseding"

	// EmptyOffer and the kinds below refuse an offer payload; the
	// contract shows CurrenciesMismatch and AlreadyCheckedOut, the others
	// follow them.
	EmptyOffer                    Kind = "EmptyOffer"
	ProductsNotFound              Kind = "ProductsNotFound"
	ProductsNotSupported          Kind = "ProductsNotSupported"
	DuplicateSellerOfferReference Kind = "DuplicateSellerOfferReference"
	ShippingMethodNotSupported    Kind = "ShippingMethodNotSupported"
	CurrenciesMismatch            Kind = "CurrenciesMismatch"
	ShippingAddressRequired       Kind = "ShippingAddressRequired"
	ExpiryInThePast               Kind = "ExpiryInThePast"
	// InvalidRedirect refuses a success or exit redirect that is not a URL
	// a customer may be sent to (package weburl).
	InvalidRedirect Kind = "InvalidRedirect"
	// AlreadyCheckedOut refuses to edit an offer that left `created`.
	AlreadyCheckedOut Kind = "AlreadyCheckedOut"
	// OutOfDate refuses a customer's acceptance of an offer that changed
	// since the customer last read it.
	OutOfDate Kind = "OutOfDate"
	// OfferNotCreated answers a creation resumed under its Idempotency-Key
	// whose offer's workflow ended without creating it.
	OfferNotCreated Kind = "OfferNotCreated"

	// InvalidReturn: a return names a serial number the contract did not
	// rent, or one given back already.
	InvalidReturn Kind = "InvalidReturn"
	// InvalidQuote: a termination names a quote the contract does not
	// have, or one expired, accepted or made for a schedule that changed.
	InvalidQuote Kind = "InvalidQuote"
	// InvalidClockAdvance: a contract's sandbox clock moves only forward,
	// and only in the sandbox.
	InvalidClockAdvance Kind = "InvalidClockAdvance"
)

// kinds are the refusals Tenure knows.
var kinds = map[Kind]bool{
	StatusNotAllowed: true, InvalidShipment: true, InvalidSuperseding: true,
	EmptyOffer: true, ProductsNotFound: true, ProductsNotSupported: true, DuplicateSellerOfferReference: true,
	ShippingMethodNotSupported: true, CurrenciesMismatch: true, ShippingAddressRequired: true, ExpiryInThePast: true, InvalidRedirect: true,
	AlreadyCheckedOut: true, OfferNotCreated: true, OutOfDate: true,
	InvalidReturn: true, InvalidQuote: true, InvalidClockAdvance: true,
}

// Known reports whether name is a kind of refusal: what a workflow or an
// activity failed with is a refusal only if so.
func Known(name string) bool { return kinds[Kind(name)] }

// OfferPayload reports whether the kind refuses an offer's payload, which
// the contract answers with an OfferError {name, message, references}.
func (k Kind) OfferPayload() bool {
	switch k {
	case StatusNotAllowed, InvalidShipment, InvalidSuperseding, OutOfDate, InvalidReturn, InvalidQuote, InvalidClockAdvance:
		return false
	}
	return true
}

// Error is a change refused, with the kind and the reason in the spec's
// words; References name the products at fault, if any.
type Error struct {
	Kind       Kind
	Message    string
	References []catalog.Reference
}

// Error is the kind and the reason, for logs.
func (e *Error) Error() string { return string(e.Kind) + ": " + e.Message }

// New is an Error with a formatted message.
func New(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}
