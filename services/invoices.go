package services

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/foundation/links"
)

// Invoices reads the invoices the contract workflows issue: for sellers
// through the Seller API, for customers through their signed links.
type Invoices struct {
	Store *db.Store
	Links invoicing.CustomerLinks
}

// NewInvoices is the invoice service of a configuration.
func NewInvoices(cfg *config.Config, store *db.Store) *Invoices {
	return &Invoices{Store: store, Links: invoicing.CustomerLinks{
		Signer: links.NewSigner(cfg.Links.SigningKey), PublicURL: cfg.HTTP.PublicURL, TTL: cfg.Invoicing.LinkTTL,
	}}
}

// ErrInvoiceNotFound is an invoice that does not exist for the seller, or
// a customer's link that opens none.
var ErrInvoiceNotFound = errors.New("invoice not found")

// Invoice document formats.
const (
	InvoicePDF = "pdf"
	InvoiceXML = "xml"
)

// Get reads an invoice of a seller.
func (s *Invoices) Get(ctx context.Context, sellerID, id uuid.UUID) (invoicing.Record, error) {
	r, err := invoicing.Load(ctx, s.Store.Queries, sellerID, id)
	if db.IsNotFound(err) {
		return r, ErrInvoiceNotFound
	}
	return r, err
}

// List returns one page of a seller's invoices and how many match in all.
func (s *Invoices) List(ctx context.Context, sellerID uuid.UUID, f invoicing.ListFilter) ([]invoicing.Record, int64, error) {
	return invoicing.List(ctx, s.Store.Queries, sellerID, f)
}

// Document is an invoice's document of a seller, as issued: its PDF or
// its e-invoice.
func (s *Invoices) Document(ctx context.Context, sellerID, id uuid.UUID, format string) ([]byte, error) {
	if _, err := s.Store.GetInvoice(ctx, dbgen.GetInvoiceParams{SellerID: sellerID, ID: id}); db.IsNotFound(err) {
		return nil, ErrInvoiceNotFound
	} else if err != nil {
		return nil, err
	}
	return s.Store.GetInvoiceDocument(ctx, dbgen.GetInvoiceDocumentParams{InvoiceID: id, Format: format})
}

// CustomerPDF is the PDF a customer's signed link opens; a token not made
// for the invoice, or expired, is ErrLinkNotValid.
func (s *Invoices) CustomerPDF(ctx context.Context, id uuid.UUID, token string) ([]byte, error) {
	if err := s.Links.Verify(id, token); err != nil {
		return nil, ErrLinkNotValid
	}
	pdf, err := s.Store.GetInvoiceDocument(ctx, dbgen.GetInvoiceDocumentParams{InvoiceID: id, Format: InvoicePDF})
	if db.IsNotFound(err) {
		return nil, ErrInvoiceNotFound
	}
	return pdf, err
}
