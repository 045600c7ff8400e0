package seller

import (
	"github.com/tenurehq/tenure/api/seller/sellerapi"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
)

// OfferRequest is a create payload in the offer domain's terms, for the
// console, whose offer builder makes the payload POST /v1/offers takes.
func OfferRequest(p sellerapi.OfferCreateRequest) offers.Request { return offerRequest(p) }

// offerRequest is a create, validate or edit payload in the offer
// domain's terms; optional values stay absent.
func offerRequest(p sellerapi.OfferCreateRequest) offers.Request {
	r := offers.Request{
		Reference:       p.SellerOfferReference,
		SalesChannel:    string(p.SalesChannel),
		ExpiresAt:       p.ExpiresAt,
		SalesAgent:      salesAgentOf(p.SalesAgent),
		Lines:           make([]offers.LineRequest, len(p.Lines)),
		ExitRedirect:    p.ExitRedirect,
		SuccessRedirect: p.SuccessRedirect,
		DraftOfferID:    p.DraftOfferId,
	}
	if p.Metadata != nil {
		r.Metadata = *p.Metadata
	}
	if c := p.Customer; c != nil {
		r.Customer = &offers.Customer{Group: c.CustomerGroup, Email: (*string)(c.Email), FullName: c.FullName, Phone: c.PhoneNumber}
		if co := c.Company; co != nil {
			r.Customer.Company = &offers.Company{Name: co.Name, TaxNumber: co.TaxNumber, VATNumber: co.VatNumber}
			if a := co.BillingAddress; a != nil {
				r.Customer.Company.BillingAddress = &offers.Address{
					City: a.City, CountryCode: a.CountryCode, Line1: a.Line1, Line2: a.Line2, PostalCode: a.PostalCode, Region: a.Region,
				}
			}
		}
	}
	if a := p.ShippingAddress; a != nil {
		r.ShippingAddress = &offers.Address{
			City: a.City, CountryCode: a.CountryCode, Line1: a.Line1, Line2: a.Line2,
			PostalCode: a.PostalCode, Recipient: a.RecipientName, Region: a.Region,
		}
	}
	if s := p.Shipping; s != nil {
		r.Shipping = &offers.Shipping{
			InStorePickup: s.IsInStorePickup, Reference: s.SellerShippingReference,
			Price: pricing.Money{Currency: s.Price.Currency, Net: s.Price.Net, Gross: s.Price.Gross},
		}
	}
	for i, l := range p.Lines {
		r.Lines[i] = lineRequest(l.Title, l.Subtitle, l.Quantity, l.SellerProductReference, l.Price, l.BaseRentalPrice)
		for _, s := range optional.Value(l.SubLines) {
			r.Lines[i].Sublines = append(r.Lines[i].Sublines,
				lineRequest(s.Title, s.Subtitle, s.Quantity, s.SellerProductReference, s.Price, s.BaseRentalPrice))
		}
	}
	return r
}

// partnerOfferRequest is a partner offer payload as an offer payload; its
// sales agent is required.
func partnerOfferRequest(b sellerapi.PartnerOfferCreateRequest) sellerapi.OfferCreateRequest {
	return sellerapi.OfferCreateRequest{
		Customer: b.Customer, DraftOfferId: b.DraftOfferId, ExitRedirect: b.ExitRedirect, ExpiresAt: b.ExpiresAt,
		Lines: b.Lines, Metadata: b.Metadata, SalesAgent: &b.SalesAgent, SalesChannel: b.SalesChannel,
		SellerOfferReference: b.SellerOfferReference, Shipping: b.Shipping, ShippingAddress: b.ShippingAddress,
		SuccessRedirect: b.SuccessRedirect,
	}
}

// validateOfferRequest is a validation payload as an offer payload.
func validateOfferRequest(b sellerapi.OfferValidateRequest) sellerapi.OfferCreateRequest {
	return sellerapi.OfferCreateRequest{
		Customer: b.Customer, DraftOfferId: b.DraftOfferId, ExitRedirect: b.ExitRedirect, ExpiresAt: b.ExpiresAt,
		Lines: b.Lines, Metadata: b.Metadata, SalesAgent: b.SalesAgent, SalesChannel: b.SalesChannel,
		SellerOfferReference: b.SellerOfferReference, Shipping: b.Shipping, ShippingAddress: b.ShippingAddress,
		SuccessRedirect: b.SuccessRedirect,
	}
}

func salesAgentOf(a *sellerapi.SalesAgent) *offers.SalesAgent {
	if a == nil {
		return nil
	}
	return &offers.SalesAgent{Email: string(a.Email), ExternalID: a.ExternalAgentId, Name: a.Name, Phone: a.Phone}
}

// lineRequest is a line or subline of a payload (they have the same fields).
func lineRequest(title string, subtitle *string, quantity int64, ref sellerapi.SellerProductReference,
	price sellerapi.OfferPriceInput, base *sellerapi.OfferPriceInput) offers.LineRequest {
	l := offers.LineRequest{
		Title: title, Subtitle: subtitle, Quantity: quantity, Product: catalogReference(ref),
		Price: offers.PriceRequest{Currency: price.Currency, Net: price.Net, Gross: price.Gross},
	}
	if base != nil {
		l.BaseRentalPrice = &offers.PriceRequest{Currency: base.Currency, Net: base.Net, Gross: base.Gross}
	}
	return l
}
