package api

import (
	"context"

	"github.com/tenurehq/tenure/api/customerapi"
)

// customerOffers serves the operations that show or change the offer's
// own document. This version does not serve them yet: after their access
// checks they answer 501, so a caller learns about its credentials first.
type customerOffers struct {
	shared sharedTokens
}

func notServedYet(what string) error {
	return NotImplemented("%s is not served by this version of Tenure yet", what)
}

// notServedToBearer answers a bearer operation of a later version once the
// token has been found to be rawID's.
func notServedToBearer(ctx context.Context, rawID, what string) error {
	if _, err := tokenOffer(ctx, rawID); err != nil {
		return err
	}
	return notServedYet(what)
}

// ShowOffer implements showOffer.
func (customerOffers) ShowOffer(ctx context.Context, r customerapi.ShowOfferRequestObject) (customerapi.ShowOfferResponseObject, error) {
	return nil, notServedToBearer(ctx, r.Id, "showing an offer to its customer")
}

// AcceptOffer implements acceptOffer.
func (customerOffers) AcceptOffer(ctx context.Context, r customerapi.AcceptOfferRequestObject) (customerapi.AcceptOfferResponseObject, error) {
	return nil, notServedToBearer(ctx, r.Id, "accepting an offer")
}

// GetAnonymizedOffer implements getAnonymizedOffer.
func (o customerOffers) GetAnonymizedOffer(ctx context.Context, r customerapi.GetAnonymizedOfferRequestObject) (customerapi.GetAnonymizedOfferResponseObject, error) {
	if _, err := o.shared.offer(ctx, r.Id, r.Params.Token); err != nil {
		return nil, err
	}
	return nil, notServedYet("showing an anonymised offer")
}

// CustomizeTermsAndServices implements customizeTermsAndServices.
func (customerOffers) CustomizeTermsAndServices(ctx context.Context, r customerapi.CustomizeTermsAndServicesRequestObject) (customerapi.CustomizeTermsAndServicesResponseObject, error) {
	return nil, notServedToBearer(ctx, r.Id, "choosing terms and services")
}

// PreviewCustomizedTermsAndServices implements
// previewCustomizedTermsAndServices: the shared token opens it, or else a
// bearer token.
func (o customerOffers) PreviewCustomizedTermsAndServices(ctx context.Context, r customerapi.PreviewCustomizedTermsAndServicesRequestObject) (customerapi.PreviewCustomizedTermsAndServicesResponseObject, error) {
	if r.Params.Token != nil {
		if _, err := o.shared.offer(ctx, r.Id, *r.Params.Token); err != nil {
			return nil, err
		}
	} else if _, ok := offerClaimsFrom(ctx); !ok {
		return nil, Unauthorized("send the offer's shared token as ?token= or an Authorization: Bearer <access token> header")
	} else if _, err := tokenOffer(ctx, r.Id); err != nil {
		return nil, err
	}
	return nil, notServedYet("previewing terms and services")
}

// GetEndCustomerInfo implements getEndCustomerInfo.
func (customerOffers) GetEndCustomerInfo(ctx context.Context, r customerapi.GetEndCustomerInfoRequestObject) (customerapi.GetEndCustomerInfoResponseObject, error) {
	return nil, notServedToBearer(ctx, r.Id, "showing the customer's data")
}

// UpdateEndCustomerInfo implements updateEndCustomerInfo.
func (customerOffers) UpdateEndCustomerInfo(ctx context.Context, r customerapi.UpdateEndCustomerInfoRequestObject) (customerapi.UpdateEndCustomerInfoResponseObject, error) {
	return nil, notServedToBearer(ctx, r.Id, "changing the customer's data")
}

// UpdateShippingAddress implements updateShippingAddress.
func (customerOffers) UpdateShippingAddress(ctx context.Context, r customerapi.UpdateShippingAddressRequestObject) (customerapi.UpdateShippingAddressResponseObject, error) {
	return nil, notServedToBearer(ctx, r.Id, "changing the shipping address")
}
