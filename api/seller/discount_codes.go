package seller

import (
	"context"
	"errors"
	"net/http"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// discountCodes serves the Tenure extension through which a seller manages
// its discount codes.
type discountCodes struct {
	service *services.DiscountCodes
}

// CreateDiscountCode implements createDiscountCode.
func (h discountCodes) CreateDiscountCode(ctx context.Context, r sellerapi.CreateDiscountCodeRequestObject) (sellerapi.CreateDiscountCodeResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	b := r.Body
	n := discounts.NewCode{
		Code: b.Code, Description: optional.Value(b.Description), PercentOff: b.PercentOff,
		ValidFrom: b.ValidFrom, ValidUntil: b.ValidUntil, UsageLimit: b.UsageLimit,
	}
	if m := b.AmountOff; m != nil {
		n.AmountOff, n.AmountCurrency = &discounts.Amount{Net: m.Net, Gross: m.Gross}, m.Currency
	}
	code, err := h.service.Create(ctx, claims.SellerID, n)
	var problem *discounts.Problem
	switch {
	case errors.As(err, &problem):
		return nil, apierror.BadRequest("%s", problem.Error())
	case errors.Is(err, discounts.ErrDuplicate):
		return nil, apierror.New(http.StatusUnprocessableEntity, "DuplicateDiscountCode", "an active discount code %s exists already", b.Code)
	case err != nil:
		return nil, err
	}
	return sellerapi.CreateDiscountCode201JSONResponse(renderDiscountCode(code)), nil
}

// ListDiscountCodes implements listDiscountCodes.
func (h discountCodes) ListDiscountCodes(ctx context.Context, r sellerapi.ListDiscountCodesRequestObject) (sellerapi.ListDiscountCodesResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	f, err := pagedFilter(listParams{Limit: r.Params.Limit, Page: r.Params.Page})
	if err != nil {
		return nil, err
	}
	codes, total, err := h.service.List(ctx, claims.SellerID, optional.Value(r.Params.IncludeInactive), f.Limit, f.Page*f.Limit)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListDiscountCodes200JSONResponse{DiscountCodes: views.Of(codes, renderDiscountCode), Pagination: pagination(f, total)}, nil
}

// GetDiscountCode implements getDiscountCode.
func (h discountCodes) GetDiscountCode(ctx context.Context, r sellerapi.GetDiscountCodeRequestObject) (sellerapi.GetDiscountCodeResponseObject, error) {
	code, err := h.one(ctx, r.Id, h.service.Get)
	return sellerapi.GetDiscountCode200JSONResponse(code), err
}

// DeactivateDiscountCode implements deactivateDiscountCode.
func (h discountCodes) DeactivateDiscountCode(ctx context.Context, r sellerapi.DeactivateDiscountCodeRequestObject) (sellerapi.DeactivateDiscountCodeResponseObject, error) {
	code, err := h.one(ctx, r.Id, h.service.Deactivate)
	return sellerapi.DeactivateDiscountCode200JSONResponse(code), err
}

// one reads or changes one of the caller's codes; another seller's code
// answers 404 like a missing one.
func (h discountCodes) one(ctx context.Context, rawID string, do func(context.Context, uuid.UUID, uuid.UUID) (discounts.Code, error)) (sellerapi.DiscountCode, error) {
	sellerID, id, err := callerAndID(ctx, "discount code", rawID)
	if err != nil {
		return sellerapi.DiscountCode{}, err
	}
	code, err := do(ctx, sellerID, id)
	if errors.Is(err, services.ErrDiscountCodeNotFound) {
		return sellerapi.DiscountCode{}, apierror.NotFound("no discount code %s", rawID)
	}
	return renderDiscountCode(code), err
}

func renderDiscountCode(c discounts.Code) sellerapi.DiscountCode {
	out := sellerapi.DiscountCode{
		Id: c.ID.String(), Code: c.Code, Description: c.Description, Active: c.Active, TimesUsed: c.TimesUsed,
		UsageLimit: c.UsageLimit, ValidFrom: c.ValidFrom, ValidUntil: c.ValidUntil, CreatedAt: c.CreatedAt,
		DeactivatedAt: c.DeactivatedAt,
	}
	if c.PercentOff != 0 {
		out.PercentOff = &c.PercentOff
	}
	if a := c.AmountOff; a != nil {
		out.AmountOff = &sellerapi.Money{Currency: c.Currency, Net: a.Net, Gross: a.Gross}
	}
	return out
}
