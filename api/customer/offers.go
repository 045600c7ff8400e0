package customer

import (
	"context"
	"errors"
	"net/http"

	"github.com/tenurehq/tenure/api/apierror"
	"github.com/tenurehq/tenure/api/customer/customerapi"
	"github.com/tenurehq/tenure/api/guard"
	"github.com/tenurehq/tenure/api/internal/views"
	"github.com/tenurehq/tenure/domain/endcustomer"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/foundation/recordid"
	"github.com/tenurehq/tenure/services"
)

// customerOffers serves the operations that show or change the offer's
// own document, through the checkout service: every change is an update
// of the offer's workflow.
type customerOffers struct {
	shared   sharedTokens
	checkout *services.CustomerOffers
	// attempts counts acceptances naming a discount code.
	attempts discountAttempts
}

// bearerStored reads the offer a bearer request acts on.
func (h customerOffers) bearerStored(ctx context.Context, rawID string) (offers.Stored, error) {
	return bearerOffer(ctx, h.checkout, rawID)
}

// sight prices the offer with the customer's choices (the given ones
// replacing the stored) and reads what else the views show.
func (h customerOffers) sight(ctx context.Context, o offers.Stored, choices []offers.Choice) (customerSight, error) {
	priced, err := h.checkout.Price(o, choices)
	if err != nil {
		return customerSight{}, customerOfferError(err)
	}
	terms, err := h.checkout.Seller(ctx, o)
	if err != nil {
		return customerSight{}, err
	}
	s := customerSight{priced: priced, terms: terms, supersedingURL: h.supersedingURL(ctx, o)}
	if c, ok := h.checkout.Creditor(terms); ok {
		s.creditor = new(paymentCreditorView(c))
	}
	return s, nil
}

// supersedingURL is the checkout link of the offer that replaced o by an
// edit; "" when none did (or it can no longer be read).
func (h customerOffers) supersedingURL(ctx context.Context, o offers.Stored) string {
	id := o.Row.SupersededByID
	if id == nil {
		return ""
	}
	next, err := h.checkout.Offers.Get(ctx, o.Row.SellerID, *id)
	if err != nil {
		return ""
	}
	return next.Document.CheckoutURL
}

// view is the offer as its customer sees it now.
func (h customerOffers) view(ctx context.Context, o offers.Stored) (customerapi.CustomerOffer, error) {
	s, err := h.sight(ctx, o, nil)
	if err != nil {
		return customerapi.CustomerOffer{}, err
	}
	return customerOfferView(o, s), nil
}

// ShowOffer implements showOffer.
func (h customerOffers) ShowOffer(ctx context.Context, r customerapi.ShowOfferRequestObject) (customerapi.ShowOfferResponseObject, error) {
	o, err := h.bearerStored(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	v, err := h.view(ctx, o)
	return customerapi.ShowOffer200JSONResponse(v), err
}

// GetAnonymizedOffer implements getAnonymizedOffer: the anonymised offer
// while it is open, its status alone once it has left created.
func (h customerOffers) GetAnonymizedOffer(ctx context.Context, r customerapi.GetAnonymizedOfferRequestObject) (customerapi.GetAnonymizedOfferResponseObject, error) {
	o, err := h.shared.offer(ctx, r.Id, r.Params.Token)
	if err != nil {
		return nil, err
	}
	if offers.StandingOf(o.Row).Reach() != offers.ReachCheckout {
		terms, err := h.checkout.Seller(ctx, o)
		if err != nil {
			return nil, err
		}
		return customerapi.GetAnonymizedOffer200JSONResponse(offerStatusView(o, terms.Seller, h.supersedingURL(ctx, o))), nil
	}
	s, err := h.sight(ctx, o, nil)
	if err != nil {
		return nil, err
	}
	return customerapi.GetAnonymizedOffer200JSONResponse(anonymizedOfferView(o, s)), nil
}

// CustomizeTermsAndServices implements customizeTermsAndServices.
func (h customerOffers) CustomizeTermsAndServices(ctx context.Context, r customerapi.CustomizeTermsAndServicesRequestObject) (customerapi.CustomizeTermsAndServicesResponseObject, error) {
	o, err := h.bearerStored(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	changed, err := h.checkout.Choose(ctx, o, choicesOf(*r.Body))
	if err != nil {
		return nil, customerOfferError(err)
	}
	v, err := h.view(ctx, changed)
	return customerapi.CustomizeTermsAndServices200JSONResponse(v), err
}

// PreviewCustomizedTermsAndServices implements
// previewCustomizedTermsAndServices: the shared token opens it, or else a
// bearer token, both while the offer is open (its prices are the
// checkout's, which closes when the customer checks out).
func (h customerOffers) PreviewCustomizedTermsAndServices(ctx context.Context, r customerapi.PreviewCustomizedTermsAndServicesRequestObject) (customerapi.PreviewCustomizedTermsAndServicesResponseObject, error) {
	var o offers.Stored
	switch {
	case r.Params.Token != nil:
		var err error
		if o, err = h.shared.open(ctx, r.Id, *r.Params.Token); err != nil {
			return nil, err
		}
	default:
		if _, ok := guard.OfferClaims(ctx); !ok {
			return nil, apierror.Unauthorized("send the offer's shared token as ?token= or an Authorization: Bearer <access token> header")
		}
		var err error
		if o, err = h.bearerStored(ctx, r.Id); err != nil {
			return nil, err
		}
	}
	s, err := h.sight(ctx, o, choicesOf(*r.Body))
	if err != nil {
		return nil, err
	}
	return customerapi.PreviewCustomizedTermsAndServices200JSONResponse(anonymizedOfferView(o, s)), nil
}

// GetEndCustomerInfo implements getEndCustomerInfo.
func (h customerOffers) GetEndCustomerInfo(ctx context.Context, r customerapi.GetEndCustomerInfoRequestObject) (customerapi.GetEndCustomerInfoResponseObject, error) {
	o, err := h.bearerStored(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	return customerapi.GetEndCustomerInfo200JSONResponse(endCustomerInfoView(o.Document)), nil
}

// UpdateEndCustomerInfo implements updateEndCustomerInfo.
func (h customerOffers) UpdateEndCustomerInfo(ctx context.Context, r customerapi.UpdateEndCustomerInfoRequestObject) (customerapi.UpdateEndCustomerInfoResponseObject, error) {
	o, err := h.bearerStored(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	changed, err := h.checkout.SetEndCustomer(ctx, o, endCustomerInfoOf(*r.Body))
	if err != nil {
		return nil, customerOfferError(err)
	}
	return customerapi.UpdateEndCustomerInfo200JSONResponse(endCustomerInfoView(changed.Document)), nil
}

// UpdateShippingAddress implements updateShippingAddress.
func (h customerOffers) UpdateShippingAddress(ctx context.Context, r customerapi.UpdateShippingAddressRequestObject) (customerapi.UpdateShippingAddressResponseObject, error) {
	o, err := h.bearerStored(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	a := r.Body
	changed, err := h.checkout.SetShippingAddress(ctx, o, endcustomer.ShippingAddress{
		Address: endcustomer.Address{
			Line1: a.Line1, Line2: optional.Value(a.Line2), PostalCode: a.PostalCode, City: a.City,
			Region: optional.Value(a.Region), CountryCode: a.CountryCode,
		},
		RecipientName: optional.Value(a.RecipientName),
	})
	if err != nil {
		return nil, customerOfferError(err)
	}
	v, err := h.view(ctx, changed)
	return customerapi.UpdateShippingAddress200JSONResponse(v), err
}

// AcceptOffer implements acceptOffer.
func (h customerOffers) AcceptOffer(ctx context.Context, r customerapi.AcceptOfferRequestObject) (customerapi.AcceptOfferResponseObject, error) {
	o, err := h.bearerStored(ctx, r.Id)
	if err != nil {
		return nil, err
	}
	in := services.Acceptance{
		LastUpdatedAt:    r.Body.LastUpdatedAt,
		DiscountCode:     optional.Value(r.Body.DiscountCode),
		RiskSessionToken: optional.Value(r.Body.RiskSessionToken),
	}
	var accepted offers.Stored
	accept := func() (err error) {
		accepted, err = h.checkout.Accept(ctx, o, in)
		return err
	}
	if in.DiscountCode != "" {
		err = h.attempts.try(ctx, o, accept)
	} else {
		err = accept()
	}
	if err != nil {
		return nil, customerOfferError(err)
	}
	v, err := h.view(ctx, accepted)
	return customerapi.AcceptOffer200JSONResponse(v), err
}

// choicesOf are the customer's choices as sent.
func choicesOf(r customerapi.CustomizeTermsRequest) []offers.Choice {
	return views.Of(r.Lines, func(l customerapi.LineChoice) offers.Choice {
		services := []string{}
		if l.SelectedServices != nil {
			services = *l.SelectedServices
		}
		// A line id is a record id, read in either case; term and service
		// ids are names Tenure composes, compared as written.
		return offers.Choice{LineID: recordid.Canonical(l.OfferLineId), TermID: l.SelectedContractTermsId, ServiceIDs: services}
	})
}

// endCustomerInfoOf is the customer's data as sent, for package checkout
// to check.
func endCustomerInfoOf(r customerapi.EndCustomerInfoUpdate) endcustomer.EndCustomerInfo {
	var info endcustomer.EndCustomerInfo
	if c := r.EndCustomer; c != nil {
		info.Company = endcustomer.Company{
			LegalForm:          optional.Value(c.Type),
			Name:               optional.Value(c.Name),
			RegistrationNumber: optional.Value(c.CompanyRegistrationNumber),
			VATNumber:          optional.Value(c.VatNumber),
			TaxNumber:          optional.Value(c.TaxNumber),
			BillingAddress:     checkoutAddressOf(c.BillingAddress),
			CompanyAddress:     checkoutAddressOf(c.CompanyAddress),
			Language:           optional.Value(c.Language),
			NotVATRegistered:   optional.Value(c.NotVatRegistered),
		}
	}
	if u := r.EndUser; u != nil {
		info.User = endcustomer.User{
			FirstName:           optional.Value(u.FirstName),
			LastName:            optional.Value(u.LastName),
			PhoneCountryCode:    optional.Value(u.PhoneCountryCode),
			PhoneNationalNumber: optional.Value(u.PhoneNationalNumber),
			PhoneType:           optional.Value(u.PhoneType),
		}
	}
	return info
}

func checkoutAddressOf(a *customerapi.Address) *endcustomer.Address {
	if a == nil {
		return nil
	}
	return &endcustomer.Address{
		Line1: optional.Value(a.Line1), Line2: optional.Value(a.Line2), PostalCode: optional.Value(a.PostalCode),
		City: optional.Value(a.City), Region: optional.Value(a.Region), CountryCode: optional.Value(a.CountryCode),
	}
}

// customerOfferError answers what the checkout service refuses in the
// Customer-Facing API's words: a choice the offer does not allow and a
// closed offer are Unprocessable, a stale acceptance OutOfDate, a billing
// country the entity does not serve IncompatibleContractualEntity; bad
// customer data (ValidationError) and discount codes are written by the
// error handler.
func customerOfferError(err error) error {
	var refused *pricing.RefusedSelection
	var r *refusal.Error
	switch {
	case errors.As(err, &refused):
		return apierror.Unprocessable("%s", refused.Error())
	case errors.Is(err, services.ErrIncompatibleEntity):
		return apierror.New(http.StatusConflict, "IncompatibleContractualEntity", "%s", err.Error())
	case errors.As(err, &r) && r.Kind == refusal.OutOfDate:
		return apierror.New(http.StatusUnprocessableEntity, "OutOfDate", "%s", r.Message)
	}
	var invalid *services.ValidationFailed
	if errors.As(err, &invalid) {
		return err
	}
	return apierror.FromService("offer", err)
}
