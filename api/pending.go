package api

import (
	"context"

	"github.com/tenurehq/tenure/api/sellerapi"
)

// pending answers the operations of the contract whose behaviour later
// milestones bring, with 501 and the contract's error object. Each method
// leaves this file when its operation is implemented.
type pending struct{}

// CreateCatalogImport is not served yet.
func (pending) CreateCatalogImport(context.Context, sellerapi.CreateCatalogImportRequestObject) (sellerapi.CreateCatalogImportResponseObject, error) {
	return nil, NotImplemented("createCatalogImport")
}

// CancelCatalogImport is not served yet.
func (pending) CancelCatalogImport(context.Context, sellerapi.CancelCatalogImportRequestObject) (sellerapi.CancelCatalogImportResponseObject, error) {
	return nil, NotImplemented("cancelCatalogImport")
}

// GetCatalogImport is not served yet.
func (pending) GetCatalogImport(context.Context, sellerapi.GetCatalogImportRequestObject) (sellerapi.GetCatalogImportResponseObject, error) {
	return nil, NotImplemented("getCatalogImport")
}
