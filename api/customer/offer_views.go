package customer

import (
	"strings"

	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/services"
)

// customerSight is what the customer's views show besides the offer: its
// lines priced with the customer's choices, the seller and its terms, and
// the checkout link of the offer that supersedes it, if any.
type customerSight struct {
	priced         pricing.CustomerPrices
	terms          services.SellerTerms
	supersedingURL string
	// creditor is who a mandate for the offer is given to; nil when the
	// seller's entity collects no direct debits.
	creditor *customerapi.PaymentCreditor
}

// customerOfferView is an offer as its customer sees it.
func customerOfferView(o offers.Stored, s customerSight) customerapi.CustomerOffer {
	terms := s.terms
	d, row := o.Document, o.Row
	status := offerStatusView(o, terms.Seller, s.supersedingURL)
	lines, singleDuration := customerLinesView(d, s.priced, terms.Seller.Name)
	v := customerapi.CustomerOffer{
		AllowedBillingCountries:       terms.BillingCountries,
		ContractualEntity:             terms.Entity,
		CreatedAt:                     status.CreatedAt,
		Customer:                      offerCustomerView(d),
		ExitRedirect:                  status.ExitRedirect,
		ExpiresAt:                     status.ExpiresAt,
		HasSingleTermDuration:         singleDuration,
		Id:                            status.Id,
		Lines:                         lines,
		OfferLink:                     d.CheckoutURL,
		PaymentCreditor:               s.creditor,
		PaymentMethodRequired:         terms.Seller.PaymentMethodRequired,
		PhoneNumber:                   d.Customer.Phone,
		PricingOverview:               customerPricingView(d, s.priced),
		RedirectToSupersedingOfferUrl: status.RedirectToSupersedingOfferUrl,
		SalesChannel:                  status.SalesChannel,
		SellerInfo:                    status.SellerInfo,
		SellerOfferReference:          status.SellerOfferReference,
		Shipping:                      shippingInfoView(d),
		Status:                        status.Status,
		SuccessRedirect:               status.SuccessRedirect,
		SupersededById:                nil,
		UpdatedAt:                     row.UpdatedAt.UTC(),
	}
	if s := d.SalesAgent; s != nil {
		v.Agent = &customerapi.SalesAgent{Email: &s.Email, ExternalAgentId: s.ExternalID, Name: &s.Name, Phone: &s.Phone}
	}
	if s := d.ShippingAddress; s != nil {
		v.ShippingAddress = &customerapi.ShippingAddress{
			City: s.City, CountryCode: s.CountryCode, Line1: s.Line1, Line2: s.Line2, PostalCode: s.PostalCode,
			RecipientName: s.Recipient, Region: s.Region,
		}
	}
	if row.SupersededByID != nil {
		v.SupersededById = new(row.SupersededByID.String())
	}
	switch offers.Status(row.Status) {
	case offers.Accepted:
		v.OfferConfirmedAt = new(row.UpdatedAt.UTC())
	case offers.Declined:
		v.DeclinedAt = new(row.UpdatedAt.UTC())
	}
	return v
}

// offerStatusView is what the shared token opens once the offer has left
// created: where the offer stands, whose it is and where the customer goes
// from here, nothing of the customer, the lines or the prices.
func offerStatusView(o offers.Stored, seller sellers.Profile, supersedingURL string) customerapi.AnonymizedOffer {
	row := o.Row
	return customerapi.AnonymizedOffer{
		CreatedAt:                     row.CreatedAt.UTC(),
		ExitRedirect:                  optional.NonZero(row.ExitRedirect),
		ExpiresAt:                     row.ExpiresAt.UTC(),
		Id:                            row.ID.String(),
		RedirectToSupersedingOfferUrl: optional.NonZero(supersedingURL),
		SalesChannel:                  customerapi.SalesChannel(row.SalesChannel),
		SellerInfo:                    sellerInfoOf(seller),
		SellerOfferReference:          row.SellerOfferReference,
		Status:                        customerapi.OfferStatus(row.Status),
		SuccessRedirect:               optional.NonZero(row.SuccessRedirect),
	}
}

// anonymizedOfferView is an open offer as its shared token shows it: the
// status view with the lines, the prices and the shipping, and of the
// customer's data the e-mail and whether the company has a VAT number.
func anonymizedOfferView(o offers.Stored, s customerSight) customerapi.AnonymizedOffer {
	d := o.Document
	v := offerStatusView(o, s.terms.Seller, s.supersedingURL)
	lines, singleDuration := customerLinesView(d, s.priced, s.terms.Seller.Name)
	v.CustomerHasVatNumber = new(hasVATNumber(d))
	v.Email = d.Customer.Email
	v.HasSingleTermDuration = &singleDuration
	v.Lines = &lines
	v.PaymentMethodRequired = new(s.terms.Seller.PaymentMethodRequired)
	v.PricingOverview = new(customerPricingView(d, s.priced))
	v.Shipping = shippingInfoView(d)
	return v
}

// customerLinesView are the offer's lines priced with the customer's
// choices, and whether every rentable line offers one rent duration only.
func customerLinesView(d offers.Document, priced pricing.CustomerPrices, provider string) ([]customerapi.CustomerOfferLine, bool) {
	lines := []customerapi.CustomerOfferLine{}
	single := true
	for i, l := range d.Lines {
		line := priced.Lines[i]
		if line.Rent != nil && len(line.Rent.Durations) > 1 {
			single = false
		}
		lines = append(lines, customerLineView(l, line, provider, priced.Overview.Discount))
	}
	return lines, single
}

// shippingInfoView is how the goods are shipped, nil when the offer does
// not say.
func shippingInfoView(d offers.Document) *customerapi.ShippingInfo {
	sh := d.Shipping
	if sh == nil {
		return nil
	}
	return &customerapi.ShippingInfo{IsInStorePickup: sh.InStorePickup, Price: new(customerMoney(sh.Price)), SellerShippingReference: &sh.Reference}
}

// hasVATNumber reports whether the customer's company has a VAT number on
// record, from the customer or else the seller.
func hasVATNumber(d offers.Document) bool {
	if e := d.EndCustomer(); e != nil {
		return e.VATNumber != ""
	}
	return d.Customer.Company != nil && optional.Value(d.Customer.Company.VATNumber) != ""
}

func customerLineView(l offers.Line, priced pricing.CustomerLine, provider string, discount *pricing.AppliedDiscount) customerapi.CustomerOfferLine {
	s := customerSublineView(l, provider)
	v := customerapi.CustomerOfferLine{
		AvailableFirstPartyServices:  servicesView(priced.Services),
		BaseRentalPrice:              s.BaseRentalPrice,
		ContractTermsList:            contractTermsView(priced.Terms),
		Id:                           l.ID,
		PrettyId:                     l.PrettyID,
		Price:                        s.Price,
		PricingCategory:              s.PricingCategory,
		ProductId:                    s.ProductId,
		Quantity:                     l.Quantity,
		RequiresSerialNumber:         priced.RequiresSerialNumber,
		SelectedContractTermsId:      priced.Selected.ID,
		SelectedFirstPartyServiceIds: priced.SelectedServiceIDs(),
		SellerProductProvidedBy:      s.SellerProductProvidedBy,
		SellerProductReferences:      s.SellerProductReferences,
		Subtitle:                     l.Subtitle,
		Title:                        l.Title,
	}
	// The line's terms as the customer chooses them: one unit with its
	// sublines, rent only when all of them can be rented.
	v.AvailableContractTerms = &customerapi.LineContractTerms{PayNow: &customerapi.PayNowTerm{Amount: customerMoney(priced.PayNow.Amount), Id: priced.PayNow.ID}}
	if priced.Rent != nil {
		v.AvailableContractTerms.Rent = &customerapi.RentTerm{
			Duration: int64(priced.Rent.Duration), Durations: views.Of(priced.Rent.Durations, func(m int) int64 { return int64(m) }),
			Id: priced.Rent.ID, MonthlyAmount: customerMoney(priced.Rent.Amount),
		}
	}
	if discount != nil && priced.DiscountID != "" {
		v.AppliedDiscountId = &priced.DiscountID
	}
	if len(l.Sublines) > 0 {
		subs := views.Of(l.Sublines, func(sub offers.Line) customerapi.CustomerOfferSubline { return customerSublineView(sub, provider) })
		v.Sublines = &subs
	}
	return v
}

// customerSublineView is a line's own product, as the offer priced it.
func customerSublineView(l offers.Line, provider string) customerapi.CustomerOfferSubline {
	v := customerapi.CustomerOfferSubline{
		Id:                      l.ID,
		PrettyId:                l.PrettyID,
		Price:                   customerMoney(l.Price),
		PricingCategory:         optional.NonZero(l.PricingCategory),
		Quantity:                l.Quantity,
		SellerProductProvidedBy: optional.NonZero(provider),
		SellerProductReferences: new(customerReferences(l.References)),
		Subtitle:                l.Subtitle,
		Title:                   l.Title,
	}
	if l.ProductID != nil {
		v.ProductId = new(l.ProductID.String())
	}
	if l.BaseRentalPrice != nil {
		v.BaseRentalPrice = new(customerMoney(*l.BaseRentalPrice))
	}
	if t := l.Terms; t != nil {
		v.AvailableContractTerms = &customerapi.LineContractTerms{}
		if t.PayNow != nil {
			v.AvailableContractTerms.PayNow = &customerapi.PayNowTerm{Amount: customerMoney(t.PayNow.Amount), Id: t.PayNow.ID}
		}
		if t.Rent != nil {
			v.AvailableContractTerms.Rent = &customerapi.RentTerm{
				Duration: int64(t.Rent.Duration), Durations: []int64{int64(t.Rent.Duration)}, Id: t.Rent.ID, MonthlyAmount: customerMoney(t.Rent.Monthly),
			}
		}
	}
	return v
}

func customerReferences(refs []catalog.Reference) []customerapi.SellerProductReference {
	return views.Of(refs, func(r catalog.Reference) customerapi.SellerProductReference {
		return customerapi.SellerProductReference{Source: r.Source, Reference: r.Reference}
	})
}

func contractTermsView(terms []pricing.ContractTerm) []customerapi.ContractTerm {
	return views.Of(terms, func(t pricing.ContractTerm) customerapi.ContractTerm {
		v := customerapi.ContractTerm{Id: t.ID, Type: customerapi.ContractTermType(t.Type), Payload: customerapi.ContractTermPayload{Amount: customerMoney(t.Amount)}}
		if t.Type == pricing.ContractRent {
			v.Payload.Duration = new(int64(t.Duration))
		}
		return v
	})
}

func servicesView(services []pricing.LineService) []customerapi.FirstPartyService {
	return views.Of(services, func(s pricing.LineService) customerapi.FirstPartyService {
		return customerapi.FirstPartyService{
			Id: s.ID, Type: s.Type, MonthlyPrice: customerMoney(s.Monthly),
			AdditionalValues: &customerapi.FirstPartyServiceValues{
				AccessoryType:   optional.NonZero(s.AccessoryType),
				DeductiblePrice: new(customerMoney(s.Deductible)),
				Images: &customerapi.ServiceImages{
					Url1x: optional.NonZero(s.Images.URL1x), Url2x: optional.NonZero(s.Images.URL2x), Url3x: optional.NonZero(s.Images.URL3x),
				},
			},
		}
	})
}

// customerPricingView is what the customer pays as chosen.
func customerPricingView(d offers.Document, priced pricing.CustomerPrices) customerapi.CustomerPricingOverview {
	o := priced.Overview
	v := customerapi.CustomerPricingOverview{
		InsteadOfAmount: customerMoney(o.InsteadOf),
		ItemsSummaries:  []customerapi.ItemPriceSummary{},
		RentInfo: customerapi.RentInfo{
			RentOnlyAmount: customerMoney(o.RentOnly),
			TenureLines: views.Of(o.TenureLines, func(t pricing.TenureLine) customerapi.TenureLine {
				return customerapi.TenureLine{Duration: int64(t.Duration), Amount: customerMoney(t.Amount)}
			}),
			TotalRent: customerMoney(o.TotalRent),
		},
		ShouldShowInsteadOfAmount:              o.ShowInsteadOf,
		TotalAmountFirstPayment:                customerMoney(o.FirstPayment),
		TotalAmountFirstPaymentWithoutShipping: customerMoney(o.FirstPaymentWithoutShipping),
		TotalPurchaseAmount:                    customerMoney(o.Purchase),
	}
	if d.Pricing != nil {
		v.ItemsSummaries = views.Of(d.Pricing.Items, func(it offers.ItemSummary) customerapi.ItemPriceSummary {
			return customerapi.ItemPriceSummary{
				Identifier:              it.LineID,
				PayNow:                  &customerapi.PayNowAmount{PayNowAmount: customerMoney(it.PayNow.Amount)},
				PayNowExcludingSublines: &customerapi.PayNowAmount{PayNowAmount: customerMoney(it.PayNowExcludingSublines.Amount)},
				Rent:                    new(customerRents(it.Rent)),
				RentExcludingSublines:   new(customerRents(it.RentExcludingSublines)),
				TotalPayNow:             &customerapi.PayNowAmount{PayNowAmount: customerMoney(it.TotalPayNow.Amount)},
				TotalRent:               new(customerRents(it.TotalRent)),
			}
		})
	}
	if a := d.Agreement(); a != nil && a.Discount != nil && o.Discount != nil {
		v.AppliedDiscount = &customerapi.AppliedDiscount{Id: a.Discount.ID.String(), Code: a.Discount.Code, Amount: customerMoney(o.Discount.Monthly)}
	}
	return v
}

func customerRents(terms []offers.RentTerm) []customerapi.RentAmount {
	return views.Of(terms, func(t offers.RentTerm) customerapi.RentAmount {
		return customerapi.RentAmount{Duration: int64(t.Duration), MonthlyAmount: customerMoney(t.Monthly)}
	})
}

func customerMoney(m pricing.Money) customerapi.Money {
	v := customerapi.Money{Currency: m.Currency, Net: m.Net, Gross: m.Gross}
	if m.TaxRate != 0 {
		v.TaxRate = new(m.TaxRate)
	}
	return v
}

// sellerInfoOf is the seller as the checkout shows it.
func sellerInfoOf(p sellers.Profile) customerapi.SellerInfo {
	c := p.Capabilities
	v := customerapi.SellerInfo{
		CapabilityAddCustomProducts:          c.AddCustomProducts,
		CapabilityAnonymizedPricing:          c.AnonymizedPricing,
		CapabilityAnonymousEcomOfferCreation: c.AnonymousEcomOfferCreation,
		CapabilityBundles:                    c.Bundles,
		CapabilityChatbotId:                  optional.NonZero(c.ChatbotID),
		CapabilityDualPricing:                c.DualPricing,
		CapabilityHideBuyNow:                 c.HideBuyNow,
		CapabilityInternationalShipment:      c.InternationalShipment,
		Currency:                             p.Currency,
		Email:                                p.Email,
		Id:                                   p.ID.String(),
		LogoUrl:                              p.LogoURL,
		Name:                                 p.Name,
		PdfReaderAssistantId:                 optional.NonZero(p.PDFReaderAssistantID),
		PrettyName:                           p.PrettyName,
		ProductReferenceSource:               optional.NonZero(p.ProductReferenceSource),
	}
	if p.ParentSellerID != nil {
		v.ParentSellerId = new(p.ParentSellerID.String())
	}
	if a := p.Address; a != (sellers.Address{}) {
		v.Address = &customerapi.Address{
			City: optional.NonZero(a.City), CountryCode: optional.NonZero(a.CountryCode), Line1: optional.NonZero(a.Line1),
			Line2: optional.NonZero(a.Line2), PostalCode: optional.NonZero(a.PostalCode), Region: optional.NonZero(a.Region),
		}
	}
	return v
}

// offerCustomerView is who the offer is for, as the seller and the
// customer gave it.
func offerCustomerView(d offers.Document) customerapi.OfferCustomer {
	c := d.Customer
	v := customerapi.OfferCustomer{Email: c.Email, FullName: c.FullName}
	if co := c.Company; co != nil {
		v.Company = &customerapi.CustomerCompany{Name: co.Name, TaxNumber: co.TaxNumber, VatNumber: co.VATNumber, BillingAddress: customerAddress(co.BillingAddress)}
	}
	if e := d.EndCustomer(); e != nil && v.Company != nil {
		v.Company.Type = optional.NonZero(e.LegalForm)
		v.Company.CompanyRegistrationNumber = optional.NonZero(e.RegistrationNumber)
	}
	return v
}

func customerAddress(a *offers.Address) *customerapi.Address {
	if a == nil {
		return nil
	}
	return &customerapi.Address{
		City: optional.NonZero(a.City), CountryCode: optional.NonZero(a.CountryCode), Line1: optional.NonZero(a.Line1),
		Line2: a.Line2, PostalCode: optional.NonZero(a.PostalCode), Region: a.Region,
	}
}

// endCustomerInfoView is the customer's data: as the customer completed
// them, else as far as the seller's offer tells.
func endCustomerInfoView(d offers.Document) customerapi.EndCustomerInfo {
	c := d.Customer
	v := customerapi.EndCustomerInfo{
		EndCustomer: customerapi.EndCustomer{Group: c.Group, InMigration: new(false), IsNew: new(true)},
		EndUser:     customerapi.EndUser{Email: c.Email, IsNew: new(true)},
	}
	if e := d.EndCustomer(); e != nil {
		v.EndCustomer.BillingAddress = customerAddress(e.BillingAddress)
		v.EndCustomer.CompanyAddress = customerAddress(e.CompanyAddress)
		v.EndCustomer.CompanyRegistrationNumber = optional.NonZero(e.RegistrationNumber)
		v.EndCustomer.Language = optional.NonZero(e.Language)
		v.EndCustomer.Name = optional.NonZero(e.Name)
		v.EndCustomer.NotVatRegistered = new(e.NotVATRegistered)
		v.EndCustomer.TaxNumber = optional.NonZero(e.TaxNumber)
		v.EndCustomer.Type = optional.NonZero(e.LegalForm)
		v.EndCustomer.VatNumber = optional.NonZero(e.VATNumber)
		v.EndUser.FirstName = optional.NonZero(e.FirstName)
		v.EndUser.LastName = optional.NonZero(e.LastName)
		v.EndUser.PhoneType = optional.NonZero(e.PhoneType)
		p := e.Phone
		v.EndUser.PhoneNumber = &customerapi.PhoneNumber{
			CountryCode: optional.NonZero(p.CountryCode), CountryPrefix: optional.NonZero(p.CountryPrefix),
			InternationalFormat: optional.NonZero(p.InternationalFormat), National: optional.NonZero(p.National), Number: optional.NonZero(p.Number),
		}
		return v
	}
	if co := c.Company; co != nil {
		v.EndCustomer.Name, v.EndCustomer.TaxNumber, v.EndCustomer.VatNumber = co.Name, co.TaxNumber, co.VATNumber
		v.EndCustomer.BillingAddress = customerAddress(co.BillingAddress)
	}
	if c.FullName != nil {
		first, last := splitName(*c.FullName)
		v.EndUser.FirstName, v.EndUser.LastName = optional.NonZero(first), optional.NonZero(last)
	}
	if c.Phone != nil {
		v.EndUser.PhoneNumber = &customerapi.PhoneNumber{Number: c.Phone}
	}
	return v
}

// splitName splits a full name before its last word: the seller sends one
// field, the customer's data have two.
func splitName(full string) (string, string) {
	full = strings.TrimSpace(full)
	i := strings.LastIndex(full, " ")
	if i < 0 {
		return "", full
	}
	return strings.TrimSpace(full[:i]), full[i+1:]
}
