package seller

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/foundation/civil"
	"github.com/tenurehq/tenure/services"
)

// contractHandlers serve the rental contract operations (Tenure
// extensions) through the contract service. A contract answers in its
// stored shape (contracts.Stored), the payload of the contract events, so
// that the API and the webhooks agree byte for byte.
type contractHandlers struct {
	service *services.Contracts
}

// ListContracts returns one page of the caller's contracts.
func (h contractHandlers) ListContracts(ctx context.Context, req sellerapi.ListContractsRequestObject) (sellerapi.ListContractsResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	f, err := contractFilter(req.Params)
	if err != nil {
		return nil, err
	}
	page, total, err := h.service.List(ctx, claims.SellerID, f)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListContracts200JSONResponse(contractPage(page, f, total)), nil
}

// GetContract returns a contract of the caller.
func (h contractHandlers) GetContract(ctx context.Context, req sellerapi.GetContractRequestObject) (sellerapi.GetContractResponseObject, error) {
	seller, id, err := callerAndID(ctx, "contract", req.Id)
	if err != nil {
		return nil, err
	}
	c, err := h.service.Get(ctx, seller, id)
	if err != nil {
		return nil, contractError(err)
	}
	return sellerapi.GetContract200JSONResponse(c), nil
}

// RecordContractReturn records assets of a contract given back.
func (h contractHandlers) RecordContractReturn(ctx context.Context, req sellerapi.RecordContractReturnRequestObject) (sellerapi.RecordContractReturnResponseObject, error) {
	r := contracts.Return{SerialNumbers: req.Body.SerialNumbers, TrackingURL: req.Body.TrackingUrl}
	c, err := h.change(ctx, req.Id, func(ctx context.Context, seller, id uuid.UUID) (contracts.Stored, error) {
		return h.service.RecordReturn(ctx, seller, id, r)
	})
	return sellerapi.RecordContractReturn200JSONResponse(c), err
}

// BuyOutContract ends a contract by a buy-out.
func (h contractHandlers) BuyOutContract(ctx context.Context, req sellerapi.BuyOutContractRequestObject) (sellerapi.BuyOutContractResponseObject, error) {
	c, err := h.change(ctx, req.Id, func(ctx context.Context, seller, id uuid.UUID) (contracts.Stored, error) {
		return h.service.BuyOut(ctx, seller, id)
	})
	return sellerapi.BuyOutContract200JSONResponse(c), err
}

// ExtendContract extends a contract by a term or month by month.
func (h contractHandlers) ExtendContract(ctx context.Context, req sellerapi.ExtendContractRequestObject) (sellerapi.ExtendContractResponseObject, error) {
	c, err := h.change(ctx, req.Id, func(ctx context.Context, seller, id uuid.UUID) (contracts.Stored, error) {
		return h.service.Extend(ctx, seller, id, req.Body.Mode)
	})
	return sellerapi.ExtendContract200JSONResponse(c), err
}

// GetContractTerminationQuote prices ending a contract early today and
// keeps the quote.
func (h contractHandlers) GetContractTerminationQuote(ctx context.Context, req sellerapi.GetContractTerminationQuoteRequestObject) (sellerapi.GetContractTerminationQuoteResponseObject, error) {
	seller, id, err := callerAndID(ctx, "contract", req.Id)
	if err != nil {
		return nil, err
	}
	quote, err := h.service.QuoteTermination(ctx, seller, id)
	if err != nil {
		return nil, contractError(err)
	}
	return sellerapi.GetContractTerminationQuote200JSONResponse(quote), nil
}

// TerminateContract accepts a termination quote of a contract.
func (h contractHandlers) TerminateContract(ctx context.Context, req sellerapi.TerminateContractRequestObject) (sellerapi.TerminateContractResponseObject, error) {
	c, err := h.change(ctx, req.Id, func(ctx context.Context, seller, id uuid.UUID) (contracts.Stored, error) {
		return h.service.Terminate(ctx, seller, id, req.Body.QuoteId)
	})
	return sellerapi.TerminateContract200JSONResponse(c), err
}

// change runs one of the contract service's changes on the contract of
// the path and returns the contract as persisted after it.
func (h contractHandlers) change(ctx context.Context, rawID string, do func(ctx context.Context, seller, id uuid.UUID) (contracts.Stored, error)) (contracts.Stored, error) {
	seller, id, err := callerAndID(ctx, "contract", rawID)
	if err != nil {
		return contracts.Stored{}, err
	}
	c, err := do(ctx, seller, id)
	if err != nil {
		return contracts.Stored{}, contractError(err)
	}
	return c, nil
}

// contractFilter checks the paging parameters of the contract list (limit
// at least 1, default 20, capped at 100; page zero-based) and reads its
// filters.
func contractFilter(p sellerapi.ListContractsParams) (contracts.ListFilter, error) {
	limit, page, err := paging(p.Limit, p.Page)
	if err != nil {
		return contracts.ListFilter{}, err
	}
	f := contracts.ListFilter{Status: p.Status, OrderID: p.OrderId, IDGt: p.IdGt, Limit: limit, Page: page}
	if p.EndingBefore != nil {
		day := civil.DateOf(p.EndingBefore.Time)
		f.EndingBefore = &day
	}
	return f, nil
}

// contractError turns the contract service's errors into the contract's.
func contractError(err error) error {
	if errors.Is(err, services.ErrContractNotFound) {
		return apierror.NotFound("contract not found")
	}
	return apierror.FromService("contract", err)
}
