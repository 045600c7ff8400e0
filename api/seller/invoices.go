package seller

import (
	"bytes"
	"context"
	"errors"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/foundation/listing"
	"github.com/tenurehq/tenure/services"
)

// invoiceHandlers serve the invoice operations (Tenure extensions, read
// only) through the invoice service. An invoice answers in its stored
// shape (invoicing.Record), the payload of invoice.issued.
type invoiceHandlers struct {
	service *services.Invoices
}

// ListInvoices returns one page of the caller's invoices.
func (h invoiceHandlers) ListInvoices(ctx context.Context, req sellerapi.ListInvoicesRequestObject) (sellerapi.ListInvoicesResponseObject, error) {
	claims, err := guard.SellerClaims(ctx)
	if err != nil {
		return nil, err
	}
	p := req.Params
	limit, page, err := paging(p.Limit, p.Page)
	if err != nil {
		return nil, err
	}
	f := invoicing.ListFilter{Status: p.Status, OrderID: p.OrderId, ContractID: p.ContractId, IDGt: p.IdGt, Limit: limit, Page: page}
	list, total, err := h.service.List(ctx, claims.SellerID, f)
	if err != nil {
		return nil, err
	}
	return sellerapi.ListInvoices200JSONResponse(sellerapi.InvoicePage{
		Invoices:   list,
		Pagination: pagination(listing.Filter{Limit: f.Limit, Page: f.Page}, total),
	}), nil
}

// GetInvoice returns an invoice of the caller.
func (h invoiceHandlers) GetInvoice(ctx context.Context, req sellerapi.GetInvoiceRequestObject) (sellerapi.GetInvoiceResponseObject, error) {
	seller, id, err := callerAndID(ctx, "invoice", req.Id)
	if err != nil {
		return nil, err
	}
	r, err := h.service.Get(ctx, seller, id)
	if err != nil {
		return nil, invoiceError(err)
	}
	return sellerapi.GetInvoice200JSONResponse(r), nil
}

// GetInvoicePdf returns an invoice's PDF as issued.
func (h invoiceHandlers) GetInvoicePdf(ctx context.Context, req sellerapi.GetInvoicePdfRequestObject) (sellerapi.GetInvoicePdfResponseObject, error) {
	content, err := h.document(ctx, req.Id, services.InvoicePDF)
	if err != nil {
		return nil, err
	}
	return sellerapi.GetInvoicePdf200ApplicationpdfResponse{Body: bytes.NewReader(content), ContentLength: int64(len(content))}, nil
}

// GetInvoiceXml returns an invoice's e-invoice as issued.
func (h invoiceHandlers) GetInvoiceXml(ctx context.Context, req sellerapi.GetInvoiceXmlRequestObject) (sellerapi.GetInvoiceXmlResponseObject, error) {
	content, err := h.document(ctx, req.Id, services.InvoiceXML)
	if err != nil {
		return nil, err
	}
	return sellerapi.GetInvoiceXml200ApplicationxmlResponse{Body: bytes.NewReader(content), ContentLength: int64(len(content))}, nil
}

// document reads a document of the caller's invoice of the path.
func (h invoiceHandlers) document(ctx context.Context, rawID, format string) ([]byte, error) {
	seller, id, err := callerAndID(ctx, "invoice", rawID)
	if err != nil {
		return nil, err
	}
	content, err := h.service.Document(ctx, seller, id, format)
	if err != nil {
		return nil, invoiceError(err)
	}
	return content, nil
}

// invoiceError turns the invoice service's errors into the contract's.
func invoiceError(err error) error {
	if errors.Is(err, services.ErrInvoiceNotFound) {
		return apierror.NotFound("invoice not found")
	}
	return apierror.FromService("invoice", err)
}
