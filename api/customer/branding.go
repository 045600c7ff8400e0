package customer

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/services"
)

// customerBranding serves the seller's logo to the offer's customer.
type customerBranding struct {
	sellers *services.Sellers
	shared  sharedTokens
}

// GetBranding implements getBranding.
func (b customerBranding) GetBranding(ctx context.Context, r customerapi.GetBrandingRequestObject) (customerapi.GetBrandingResponseObject, error) {
	claims, err := tokenOffer(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	info, err := b.branding(ctx, claims.SellerID)
	return customerapi.GetBranding200JSONResponse(info), err
}

// GetAnonymizedBranding implements getAnonymizedBranding.
func (b customerBranding) GetAnonymizedBranding(ctx context.Context, r customerapi.GetAnonymizedBrandingRequestObject) (customerapi.GetAnonymizedBrandingResponseObject, error) {
	o, err := b.shared.offer(ctx, r.Id, r.Params.Token)
	if err != nil {
		return nil, err
	}
	info, err := b.branding(ctx, o.Row.SellerID)
	return customerapi.GetAnonymizedBranding200JSONResponse(info), err
}

func (b customerBranding) branding(ctx context.Context, sellerID uuid.UUID) (customerapi.BrandingInfo, error) {
	profile, err := b.sellers.Profile(ctx, sellerID)
	if errors.Is(err, services.ErrSellerNotFound) {
		return customerapi.BrandingInfo{}, apierror.NotFound("the offer's seller no longer exists")
	}
	if err != nil {
		return customerapi.BrandingInfo{}, err
	}
	var logo *string
	if profile.LogoURL != "" {
		logo = &profile.LogoURL
	}
	return customerapi.BrandingInfo{LogoUrl: logo}, nil
}
