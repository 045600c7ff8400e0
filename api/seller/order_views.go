package seller

import (
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
)

// orderView is an order as GET /v1/orders/{id} returns it and as the order
// webhooks send it.
func orderView(o orders.Stored) sellerapi.Order {
	d, row := o.Document, o.Row
	v := sellerapi.Order{
		Assets:               assetsView(o.Assets),
		CanceledAt:           row.CanceledAt,
		CreatedAt:            row.CreatedAt,
		CustomerInfo:         customerView(d.Customer),
		Id:                   row.ID.String(),
		Metadata:             &o.Metadata,
		OfferCreatedAt:       row.OfferCreatedAt,
		OfferId:              row.OfferID.String(),
		OrderLines:           make([]sellerapi.OrderLine, len(d.Lines)),
		SalesAgent:           salesAgentView(d.SalesAgent),
		SellerInfo:           sellerInfoView(d.Seller),
		SellerOfferReference: row.SellerOfferReference,
		ShippingAddress:      shippingAddressView(d.ShippingAddress),
		ShippingInfo:         shippingView(d.Shipping),
		Status:               sellerapi.OrderStatus(row.Status),
		TrackingUrls:         o.TrackingURLs,
	}
	for i, l := range d.Lines {
		v.OrderLines[i] = orderLineView(l)
	}
	return v
}

// orderSummaryView is the short form the order operations (acknowledge,
// accept, reject, set metadata) answer with.
func orderSummaryView(o orders.Stored) sellerapi.OrderSummary {
	return sellerapi.OrderSummary{
		Assets:               assetsView(o.Assets),
		Id:                   o.Row.ID.String(),
		Metadata:             &o.Metadata,
		OfferId:              o.Row.OfferID.String(),
		SellerOfferReference: o.Row.SellerOfferReference,
		Status:               sellerapi.OrderStatus(o.Row.Status),
	}
}

func assetsView(assets []orders.Asset) []sellerapi.OrderAsset {
	out := make([]sellerapi.OrderAsset, len(assets))
	for i, a := range assets {
		productID := ""
		if a.ProductID != nil {
			productID = a.ProductID.String()
		}
		out[i] = sellerapi.OrderAsset{
			Id:                      a.ID.String(),
			ProductId:               productID,
			SellerProductReferences: referencesView(a.References),
			SerialNumber:            a.SerialNumber,
			Status:                  sellerapi.OrderAssetStatus(a.Status),
			Title:                   a.Title,
			TrackingUrl:             a.TrackingURL,
		}
	}
	return out
}

// sellerInfoView is the order's seller; Tenure offers none of the optional
// capabilities the contract lists, so they are all false.
func sellerInfoView(s orders.Seller) sellerapi.SellerInfo {
	return sellerapi.SellerInfo{
		Address:                addressView(s.Address),
		Currency:               s.Currency,
		Email:                  s.Email,
		Id:                     s.ID.String(),
		Name:                   s.Name,
		ProductReferenceSource: s.ProductReferenceSource,
	}
}

// orderSublineView is an ordered line or subline without its sublines.
func orderSublineView(l orders.Line) sellerapi.OrderSubline {
	v := sellerapi.OrderSubline{
		ContractType:               sellerapi.ContractType(l.ContractType),
		Duration:                   sellerapi.ContractMonths(l.Duration),
		MonthlyPrice:               money(l.MonthlyPrice),
		PrettyId:                   l.PrettyID,
		Quantity:                   l.Quantity,
		SelectedFirstPartyServices: selectedServicesView(l.Services),
		SellerProductReferences:    referencesView(l.References),
		Subtitle:                   l.Subtitle,
		Title:                      l.Title,
	}
	if l.ProductID != nil {
		id := l.ProductID.String()
		v.ProductId = &id
	}
	if l.UnitPrice != nil {
		price := money(*l.UnitPrice)
		v.UnitPrice = &price
	}
	if l.BaseRentalPrice != nil {
		base := money(*l.BaseRentalPrice)
		v.BaseRentalPrice = &base
	}
	return v
}

func orderLineView(l orders.Line) sellerapi.OrderLine {
	s := orderSublineView(l)
	v := sellerapi.OrderLine{
		BaseRentalPrice:            s.BaseRentalPrice,
		ContractType:               s.ContractType,
		Duration:                   s.Duration,
		MonthlyPrice:               s.MonthlyPrice,
		PrettyId:                   s.PrettyId,
		ProductId:                  s.ProductId,
		Quantity:                   s.Quantity,
		SelectedFirstPartyServices: s.SelectedFirstPartyServices,
		SellerProductReferences:    s.SellerProductReferences,
		Subtitle:                   s.Subtitle,
		Title:                      s.Title,
		UnitPrice:                  s.UnitPrice,
	}
	if len(l.Sublines) > 0 {
		subs := views.Of(l.Sublines, orderSublineView)
		v.Sublines = &subs
	}
	return v
}

// selectedServicesView lists the services chosen with a line under the
// published contract's type names; never null.
func selectedServicesView(services []offers.AgreedService) []sellerapi.FirstPartyService {
	return views.Of(services, func(s offers.AgreedService) sellerapi.FirstPartyService {
		return sellerapi.FirstPartyService{
			Id: s.ID, MonthlyPrice: money(s.Monthly), Type: sellerapi.FirstPartyServiceType(pricing.ServiceTypes[s.Type]),
		}
	})
}
