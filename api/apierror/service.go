package apierror

import (
	"errors"
	"net/http"

	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/services"
)

// FromService answers what the offer and order services refuse, the one
// path of both: input beyond Tenure's limits is 400; a refusal is 422, an
// offer payload's with the contract's OfferError, any other with the error
// object; a workflow that did not answer in time is 503. Anything else is left to the error handler, which logs it
// with the request id and answers an opaque fault.
func FromService(what string, err error) error {
	var refused *refusal.Error
	switch {
	case errors.As(err, &refused):
		if refused.Kind.OfferPayload() {
			return &Error{Status: http.StatusUnprocessableEntity, Name: string(refused.Kind), Message: refused.Message, Body: offerErrorBody(refused)}
		}
		return Unprocessable("%s", refused.Message)
	case errors.Is(err, services.ErrUnavailable):
		return Unavailable("the %s workflow did not confirm the change in time; read the %s before retrying", what, what)
	}
	return BadInput(err)
}

// BadInput answers input a service found beyond Tenure's limits
// (*refusal.Invalid, whose message names the field) with 400; any other
// error passes as it is.
func BadInput(err error) error {
	var invalid *refusal.Invalid
	if errors.As(err, &invalid) {
		return BadRequest("%s", invalid.Message)
	}
	return err
}

// offerErrorBody is the contract's OfferError of an offer payload refused.
func offerErrorBody(r *refusal.Error) sellerapi.OfferError {
	refs := make([]sellerapi.SellerProductReference, len(r.References))
	for i, ref := range r.References {
		refs[i] = sellerapi.SellerProductReference{Source: ref.Source, Reference: ref.Reference}
	}
	return sellerapi.OfferError{Name: string(r.Kind), Message: r.Message, References: &refs}
}
