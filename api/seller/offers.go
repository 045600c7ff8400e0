package seller

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// offerHandlers serve the offer operations through the offer service.
type offerHandlers struct {
	service *services.Offers
}

// CreateOffer creates an offer (201).
func (h offerHandlers) CreateOffer(ctx context.Context, req sellerapi.CreateOfferRequestObject) (sellerapi.CreateOfferResponseObject, error) {
	o, err := h.create(ctx, *req.Body, offers.Options{})
	return sellerapi.CreateOffer201JSONResponse(o), err
}

// CreatePartnerOffer creates an offer for a partner; its sales agent is
// required (201).
func (h offerHandlers) CreatePartnerOffer(ctx context.Context, req sellerapi.CreatePartnerOfferRequestObject) (sellerapi.CreatePartnerOfferResponseObject, error) {
	o, err := h.create(ctx, partnerOfferRequest(*req.Body), offers.Options{Partner: true})
	return sellerapi.CreatePartnerOffer201JSONResponse(o), err
}

func (h offerHandlers) create(ctx context.Context, p sellerapi.OfferCreateRequest, o offers.Options) (sellerapi.Offer, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return sellerapi.Offer{}, err
	}
	created, err := h.service.Create(ctx, claims.SellerID, offerRequest(p), o)
	if err != nil {
		return sellerapi.Offer{}, offerError(err)
	}
	return offerView(created, h.service.Review), nil
}

// ValidateOffer checks and prices a payload without creating anything.
func (h offerHandlers) ValidateOffer(ctx context.Context, req sellerapi.ValidateOfferRequestObject) (sellerapi.ValidateOfferResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	pricing, err := h.service.Validate(ctx, claims.SellerID, offerRequest(validateOfferRequest(*req.Body)))
	if err != nil {
		return nil, offerError(err)
	}
	return sellerapi.ValidateOffer200JSONResponse{PricingOverview: pricingView(pricing)}, nil
}

// GetOffer returns an offer of the caller.
func (h offerHandlers) GetOffer(ctx context.Context, req sellerapi.GetOfferRequestObject) (sellerapi.GetOfferResponseObject, error) {
	seller, id, err := callerAndID(ctx, "offer", req.Id)
	if err != nil {
		return nil, err
	}
	o, err := h.service.Get(ctx, seller, id)
	if err != nil {
		return nil, offerError(err)
	}
	return sellerapi.GetOffer200JSONResponse(offerView(o, h.service.Review)), nil
}

// GetOfferByReference returns the caller's newest offer with a reference.
func (h offerHandlers) GetOfferByReference(ctx context.Context, req sellerapi.GetOfferByReferenceRequestObject) (sellerapi.GetOfferByReferenceResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	o, err := h.service.GetByReference(ctx, claims.SellerID, req.SellerOfferReference)
	if err != nil {
		return nil, offerError(err)
	}
	return sellerapi.GetOfferByReference200JSONResponse(offerView(o, h.service.Review)), nil
}

// EditOffer replaces an offer by a superseding one and returns it (202).
func (h offerHandlers) EditOffer(ctx context.Context, req sellerapi.EditOfferRequestObject) (sellerapi.EditOfferResponseObject, error) {
	seller, id, err := callerAndID(ctx, "offer", req.Id)
	if err != nil {
		return nil, err
	}
	o, err := h.service.Edit(ctx, seller, id, offerRequest(*req.Body))
	if err != nil {
		return nil, offerError(err)
	}
	return sellerapi.EditOffer202JSONResponse(offerView(o, h.service.Review)), nil
}

// VoidOffer voids an offer, optionally naming the one superseding it.
func (h offerHandlers) VoidOffer(ctx context.Context, req sellerapi.VoidOfferRequestObject) (sellerapi.VoidOfferResponseObject, error) {
	seller, id, err := callerAndID(ctx, "offer", req.Id)
	if err != nil {
		return nil, err
	}
	var by *uuid.UUID
	if req.Body != nil && req.Body.SupersededById != nil {
		parsed, err := recordid.Parse(*req.Body.SupersededById)
		if err != nil {
			return nil, apierror.Unprocessable("superseded_by_id %q is not an offer of the seller", *req.Body.SupersededById)
		}
		by = &parsed
	}
	o, err := h.service.Void(ctx, seller, id, by)
	if err != nil {
		return nil, offerError(err)
	}
	return sellerapi.VoidOffer200JSONResponse(offerView(o, h.service.Review)), nil
}

// ListOffers returns the caller's offers matching the filters, oldest
// first, at most listing.UnpagedLimit (deprecated operation).
func (h offerHandlers) ListOffers(ctx context.Context, req sellerapi.ListOffersRequestObject) (sellerapi.ListOffersResponseObject, error) {
	p := req.Params
	list, err := listAll(ctx, p.Query, p.CreatedBy, p.PartnersOnly, h.service.List)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListOffers200JSONResponse(offerViews(list, h.service.Review)), nil
}

// ListOffersPaginated returns one page of the caller's offers.
func (h offerHandlers) ListOffersPaginated(ctx context.Context, req sellerapi.ListOffersPaginatedRequestObject) (sellerapi.ListOffersPaginatedResponseObject, error) {
	list, page, err := listPage(ctx, req.Params, h.service.List)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListOffersPaginated200JSONResponse{Offers: offerViews(list, h.service.Review), Pagination: page}, nil
}

func offerViews(list []offers.Stored, review offers.Review) []sellerapi.Offer {
	out := make([]sellerapi.Offer, len(list))
	for i, o := range list {
		out[i] = offerView(o, review)
	}
	return out
}

// offerError turns the offer service's errors into the contract's.
func offerError(err error) error {
	if errors.Is(err, services.ErrOfferNotFound) {
		return apierror.NotFound("offer not found")
	}
	return apierror.FromService("offer", err)
}
