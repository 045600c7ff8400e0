package seller

import (
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/payouts"
	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/services"
)

// payoutHandlers serve the payout operations (Tenure extensions, read
// only). A payout answers in its stored shape (payouts.Record), the
// payload of payout.sent.
type payoutHandlers struct {
	service *services.Payouts
}

// ListPayouts returns one page of the caller's payouts.
func (h payoutHandlers) ListPayouts(ctx context.Context, req sellerapi.ListPayoutsRequestObject) (sellerapi.ListPayoutsResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	p := req.Params
	limit, page, err := paging(p.Limit, p.Page)
	if err != nil {
		return nil, err
	}
	f := payouts.ListFilter{Status: p.Status, IDGt: p.IdGt, Limit: limit, Page: page}
	list, total, err := h.service.List(ctx, claims.SellerID, f)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListPayouts200JSONResponse(sellerapi.PayoutPage{
		Payouts:    list,
		Pagination: pagination(listing.Filter{Limit: f.Limit, Page: f.Page}, total),
	}), nil
}

// GetPayout returns a payout of the caller.
func (h payoutHandlers) GetPayout(ctx context.Context, req sellerapi.GetPayoutRequestObject) (sellerapi.GetPayoutResponseObject, error) {
	seller, id, err := callerAndID(ctx, "payout", req.Id)
	if err != nil {
		return nil, err
	}
	r, err := h.service.Get(ctx, seller, id)
	if errors.Is(err, services.ErrPayoutNotFound) {
		return nil, apierror.NotFound("payout not found")
	}
	if err != nil {
		return nil, apierror.FromService("payout", err)
	}
	return sellerapi.GetPayout200JSONResponse(r), nil
}
