// Package offers is the offer service: it builds an offer from a
// merchant's payload (every line found in the catalog and priced, every rule
// of the spec checked), talks to the offer workflows, and reads and renders
// offers as the Seller API returns them.
package offers

import (
	"fmt"

	"github.com/tenurehq/tenure/api/sellerapi"
)

// Rejection is a payload the offer rules refuse; the API answers it with
// 422 and the contract's {name, message, references}.
type Rejection struct {
	Name       string
	Message    string
	References []sellerapi.SellerProductReference
}

func (r *Rejection) Error() string { return r.Name + ": " + r.Message }

// Names of rejections (the contract shows CurrenciesMismatch and
// AlreadyCheckedOut; the others follow them).
const (
	EmptyOffer                    = "EmptyOffer"
	ProductsNotFound              = "ProductsNotFound"
	ProductsNotSupported          = "ProductsNotSupported"
	DuplicateSellerOfferReference = "DuplicateSellerOfferReference"
	ShippingMethodNotSupported    = "ShippingMethodNotSupported"
	CurrenciesMismatch            = "CurrenciesMismatch"
	ShippingAddressRequired       = "ShippingAddressRequired"
	ExpiryInThePast               = "ExpiryInThePast"
	AlreadyCheckedOut             = "AlreadyCheckedOut"
)

func reject(name string, refs []sellerapi.SellerProductReference, format string, args ...any) *Rejection {
	return &Rejection{Name: name, Message: fmt.Sprintf(format, args...), References: refs}
}

// InputError is a value the contract's schema cannot refuse (a length, a
// range, an inconsistent price); the API answers it with 400.
type InputError struct{ Message string }

func (e *InputError) Error() string { return e.Message }

func invalid(format string, args ...any) *InputError {
	return &InputError{Message: fmt.Sprintf(format, args...)}
}
