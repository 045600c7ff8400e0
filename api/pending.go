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

// ListOffers is not served yet.
func (pending) ListOffers(context.Context, sellerapi.ListOffersRequestObject) (sellerapi.ListOffersResponseObject, error) {
	return nil, NotImplemented("listOffers")
}

// CreateOffer is not served yet.
func (pending) CreateOffer(context.Context, sellerapi.CreateOfferRequestObject) (sellerapi.CreateOfferResponseObject, error) {
	return nil, NotImplemented("createOffer")
}

// ListOffersPaginated is not served yet.
func (pending) ListOffersPaginated(context.Context, sellerapi.ListOffersPaginatedRequestObject) (sellerapi.ListOffersPaginatedResponseObject, error) {
	return nil, NotImplemented("listOffersPaginated")
}

// CreatePartnerOffer is not served yet.
func (pending) CreatePartnerOffer(context.Context, sellerapi.CreatePartnerOfferRequestObject) (sellerapi.CreatePartnerOfferResponseObject, error) {
	return nil, NotImplemented("createPartnerOffer")
}

// GetOfferByReference is not served yet.
func (pending) GetOfferByReference(context.Context, sellerapi.GetOfferByReferenceRequestObject) (sellerapi.GetOfferByReferenceResponseObject, error) {
	return nil, NotImplemented("getOfferByReference")
}

// ValidateOffer is not served yet.
func (pending) ValidateOffer(context.Context, sellerapi.ValidateOfferRequestObject) (sellerapi.ValidateOfferResponseObject, error) {
	return nil, NotImplemented("validateOffer")
}

// GetOffer is not served yet.
func (pending) GetOffer(context.Context, sellerapi.GetOfferRequestObject) (sellerapi.GetOfferResponseObject, error) {
	return nil, NotImplemented("getOffer")
}

// EditOffer is not served yet.
func (pending) EditOffer(context.Context, sellerapi.EditOfferRequestObject) (sellerapi.EditOfferResponseObject, error) {
	return nil, NotImplemented("editOffer")
}

// VoidOffer is not served yet.
func (pending) VoidOffer(context.Context, sellerapi.VoidOfferRequestObject) (sellerapi.VoidOfferResponseObject, error) {
	return nil, NotImplemented("voidOffer")
}

// ListOrders is not served yet.
func (pending) ListOrders(context.Context, sellerapi.ListOrdersRequestObject) (sellerapi.ListOrdersResponseObject, error) {
	return nil, NotImplemented("listOrders")
}

// ListOrdersPaginated is not served yet.
func (pending) ListOrdersPaginated(context.Context, sellerapi.ListOrdersPaginatedRequestObject) (sellerapi.ListOrdersPaginatedResponseObject, error) {
	return nil, NotImplemented("listOrdersPaginated")
}

// GetOrder is not served yet.
func (pending) GetOrder(context.Context, sellerapi.GetOrderRequestObject) (sellerapi.GetOrderResponseObject, error) {
	return nil, NotImplemented("getOrder")
}

// SetOrderMetadata is not served yet.
func (pending) SetOrderMetadata(context.Context, sellerapi.SetOrderMetadataRequestObject) (sellerapi.SetOrderMetadataResponseObject, error) {
	return nil, NotImplemented("setOrderMetadata")
}

// AcceptOrder is not served yet.
func (pending) AcceptOrder(context.Context, sellerapi.AcceptOrderRequestObject) (sellerapi.AcceptOrderResponseObject, error) {
	return nil, NotImplemented("acceptOrder")
}

// AcknowledgeOrder is not served yet.
func (pending) AcknowledgeOrder(context.Context, sellerapi.AcknowledgeOrderRequestObject) (sellerapi.AcknowledgeOrderResponseObject, error) {
	return nil, NotImplemented("acknowledgeOrder")
}

// RejectOrder is not served yet.
func (pending) RejectOrder(context.Context, sellerapi.RejectOrderRequestObject) (sellerapi.RejectOrderResponseObject, error) {
	return nil, NotImplemented("rejectOrder")
}

// CreateShipment is not served yet.
func (pending) CreateShipment(context.Context, sellerapi.CreateShipmentRequestObject) (sellerapi.CreateShipmentResponseObject, error) {
	return nil, NotImplemented("createShipment")
}
