package api

import (
	"context"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/customerapi"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/sellers"
)

// customerBranding serves the seller's logo to the offer's customer.
type customerBranding struct {
	store  *db.Store
	shared sharedTokens
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
	row, err := b.shared.offer(ctx, r.Id, r.Params.Token)
	if err != nil {
		return nil, err
	}
	info, err := b.branding(ctx, row.SellerID)
	return customerapi.GetAnonymizedBranding200JSONResponse(info), err
}

func (b customerBranding) branding(ctx context.Context, sellerID uuid.UUID) (customerapi.BrandingInfo, error) {
	profile, err := sellers.Load(ctx, b.store.Queries, sellerID)
	if db.IsNotFound(err) {
		return customerapi.BrandingInfo{}, NotFound("the offer's seller no longer exists")
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
