package seller

import (
	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/foundation/optional"
)

// offerView is an offer as GET /v1/offers/{id} returns it and as the offer
// webhooks send it: the document with what the workflow decided; review is
// how the environment decides offers under review (riskDecisionView).
func offerView(o offers.Stored, review offers.Review) sellerapi.Offer {
	d, row := o.Document, o.Row
	v := sellerapi.Offer{
		CheckoutRedirectUrl:    d.CheckoutURL,
		CreatedAt:              row.CreatedAt.UTC(),
		Customer:               customerView(d.Customer),
		ExpiresAt:              row.ExpiresAt.UTC(),
		Id:                     row.ID.String(),
		Lines:                  make([]sellerapi.OfferLine, len(d.Lines)),
		Metadata:               metadataView(d.Metadata),
		RiskDecision:           riskDecisionView(o, review),
		SalesAgent:             salesAgentView(d.SalesAgent),
		SalesChannel:           sellerapi.SalesChannel(row.SalesChannel),
		SellerOfferRedirectUrl: d.SellerURL,
		SellerOfferReference:   row.SellerOfferReference,
		Shipping:               shippingView(d.Shipping),
		ShippingAddress:        shippingAddressView(d.ShippingAddress),
		Status:                 sellerapi.OfferStatus(row.Status),
	}
	for i, l := range d.Lines {
		v.Lines[i] = offerLineView(l)
	}
	if d.Pricing != nil {
		p := pricingView(*d.Pricing)
		v.PricingOverview = &p
	}
	if row.SupersededByID != nil {
		by := row.SupersededByID.String()
		v.SupersededById = &by
	}
	return v
}

// metadataView is metadata as sent: absent when none was.
func metadataView(m map[string]string) *map[string]string {
	if m == nil {
		return nil
	}
	return &m
}

func customerView(c offers.Customer) sellerapi.Customer {
	v := sellerapi.Customer{
		CustomerGroup: c.Group, Email: (*openapi_types.Email)(c.Email), FullName: c.FullName, PhoneNumber: c.Phone,
	}
	if co := c.Company; co != nil {
		v.Company = &sellerapi.Company{Name: co.Name, TaxNumber: co.TaxNumber, VatNumber: co.VATNumber}
		if a := co.BillingAddress; a != nil {
			billing := addressView(*a)
			v.Company.BillingAddress = &billing
		}
	}
	return v
}

func addressView(a offers.Address) sellerapi.Address {
	return sellerapi.Address{City: a.City, CountryCode: a.CountryCode, Line1: a.Line1, Line2: a.Line2, PostalCode: a.PostalCode, Region: a.Region}
}

// shippingAddressView is a shipping address; the contract requires one,
// empty when the offer has none.
func shippingAddressView(a *offers.Address) sellerapi.ShippingAddress {
	if a == nil {
		return sellerapi.ShippingAddress{}
	}
	return sellerapi.ShippingAddress{
		City: a.City, CountryCode: a.CountryCode, Line1: a.Line1, Line2: a.Line2,
		PostalCode: a.PostalCode, RecipientName: a.Recipient, Region: a.Region,
	}
}

func salesAgentView(a *offers.SalesAgent) *sellerapi.SalesAgent {
	if a == nil {
		return nil
	}
	return &sellerapi.SalesAgent{Email: openapi_types.Email(a.Email), ExternalAgentId: a.ExternalID, Name: a.Name, Phone: a.Phone}
}

func shippingView(s *offers.Shipping) *sellerapi.OfferShipping {
	if s == nil {
		return nil
	}
	return &sellerapi.OfferShipping{IsInStorePickup: s.InStorePickup, Price: money(s.Price), SellerShippingReference: s.Reference}
}

// referencesView lists reference pairs; never null, as the contract
// requires the list.
func referencesView(refs []catalog.Reference) []sellerapi.SellerProductReference {
	return views.Of(refs, reference)
}

// offerSublineView is a priced line or subline without its sublines.
func offerSublineView(l offers.Line) sellerapi.OfferSubline {
	v := sellerapi.OfferSubline{
		Id:                      l.ID,
		Origin:                  l.Origin,
		PrettyId:                l.PrettyID,
		Price:                   money(l.Price),
		PricingCategory:         l.PricingCategory,
		Quantity:                l.Quantity,
		SelectedContractType:    l.SelectedContractType,
		SellerProductReferences: referencesView(l.References),
		Subtitle:                l.Subtitle,
		Title:                   l.Title,
	}
	if l.ProductID != nil {
		id := l.ProductID.String()
		v.ProductId = &id
	}
	if l.BaseRentalPrice != nil {
		base := money(*l.BaseRentalPrice)
		v.BaseRentalPrice = &base
	}
	if t := l.Terms; t != nil {
		v.AvailableContractTerms = &sellerapi.OfferLineContractTerms{}
		if t.PayNow != nil {
			v.AvailableContractTerms.PayNow = &sellerapi.PayNowTerm{Amount: moneyWithTax(t.PayNow.Amount), Id: optional.NonZero(t.PayNow.ID)}
		}
		if t.Rent != nil {
			v.AvailableContractTerms.Rent = &sellerapi.RentTerm{
				Duration: sellerapi.RentalTermMonths(t.Rent.Duration), Id: optional.NonZero(t.Rent.ID), MonthlyAmount: moneyWithTax(t.Rent.Monthly),
			}
		}
	}
	return v
}

func offerLineView(l offers.Line) sellerapi.OfferLine {
	s := offerSublineView(l)
	v := sellerapi.OfferLine{
		AvailableContractTerms:  s.AvailableContractTerms,
		BaseRentalPrice:         s.BaseRentalPrice,
		Id:                      s.Id,
		Origin:                  s.Origin,
		PrettyId:                s.PrettyId,
		Price:                   s.Price,
		PricingCategory:         s.PricingCategory,
		ProductId:               s.ProductId,
		Quantity:                s.Quantity,
		SelectedContractType:    s.SelectedContractType,
		SellerProductReferences: s.SellerProductReferences,
		Subtitle:                s.Subtitle,
		Title:                   s.Title,
	}
	if len(l.Sublines) > 0 {
		subs := views.Of(l.Sublines, offerSublineView)
		v.Sublines = &subs
	}
	return v
}

// pricingView is what the customer pays for an offer.
func pricingView(p offers.Pricing) sellerapi.PricingOverview {
	v := sellerapi.PricingOverview{
		Breakdown:       make([]sellerapi.PriceBreakdownLine, len(p.Breakdown)),
		InsteadOfAmount: money(p.InsteadOf),
		TotalAmount:     money(p.Total),
	}
	for i, b := range p.Breakdown {
		v.Breakdown[i] = sellerapi.PriceBreakdownLine{Amount: money(b.Amount), Title: b.Title}
	}
	if p.Items != nil {
		items := make([]sellerapi.ItemPriceSummary, len(p.Items))
		for i, it := range p.Items {
			items[i] = sellerapi.ItemPriceSummary{
				Identifier:              it.LineID,
				PayNow:                  payNowView(it.PayNow),
				PayNowExcludingSublines: payNowView(it.PayNowExcludingSublines),
				Rent:                    rentAmountsView(it.Rent),
				RentExcludingSublines:   rentAmountsView(it.RentExcludingSublines),
				TotalPayNow:             payNowView(it.TotalPayNow),
				TotalRent:               rentAmountsView(it.TotalRent),
			}
		}
		v.ItemsSummaries = &items
	}
	if p.Shipping != nil {
		shipping := money(*p.Shipping)
		v.ShippingAmount = &shipping
	}
	return v
}

func payNowView(a offers.PayNowAmount) sellerapi.PayNowAmount {
	return sellerapi.PayNowAmount{PayNowAmount: money(a.Amount)}
}

// rentAmountsView lists monthly amounts per term; an empty list, never
// null, when the item cannot be rented (the contract requires the field).
func rentAmountsView(terms []offers.RentTerm) []sellerapi.RentAmount {
	out := make([]sellerapi.RentAmount, len(terms))
	for i, t := range terms {
		out[i] = sellerapi.RentAmount{Duration: sellerapi.RentalTermMonths(t.Duration), MonthlyAmount: money(t.Monthly)}
	}
	return out
}
