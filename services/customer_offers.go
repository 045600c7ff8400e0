package services

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/domain/endcustomer"
	"github.com/tenurehq/tenure/domain/idv"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/domain/sellers"
	"github.com/tenurehq/tenure/foundation/keyring"
	"github.com/tenurehq/tenure/workflows/entity"
	"github.com/tenurehq/tenure/workflows/offer"
)

// CustomerOffers is what an offer's end customer asks of it: every change is an
// update of the offer's workflow, refused by its validator unless the
// offer is open (created).
type CustomerOffers struct {
	Offers  *Offers
	Sellers *Sellers
	// Entities are the billing countries of a contractual entity id ("" is
	// the default); ok is false for an entity the deployment lacks.
	Entities func(id string) (resolved string, countries []string, ok bool)
	// IDV decides which offers need identity verification.
	IDV endcustomer.IDVRules
	// Terms are the deployment's own terms and conditions documents.
	Terms config.TermsConfig
	// Creditors are the creditors of the contractual entities (by id, ""
	// the default), whose mandates customers give.
	Creditors func(entity string) (config.Creditor, bool)
	// IBANs seal the customers' IBANs (mandates.iban_keys).
	IBANs *keyring.Ring
	Now   func() time.Time
}

// Find reads an offer by its id alone, whatever its seller: the customer's
// credentials name the offer, not the seller. An unknown one is
// ErrOfferNotFound.
func (c *CustomerOffers) Find(ctx context.Context, offerID uuid.UUID) (offers.Stored, error) {
	row, err := c.Offers.Store.FindOffer(ctx, offerID)
	if db.IsNotFound(err) {
		return offers.Stored{}, ErrOfferNotFound
	}
	if err != nil {
		return offers.Stored{}, err
	}
	return offers.Decode(row)
}

// ValidationFailed names every field of the customer's data that is bad
// or missing: the Customer-Facing API's ValidationError.
type ValidationFailed struct {
	Message string
	Fields  []endcustomer.FieldError
}

func (v *ValidationFailed) Error() string { return v.Message }

// ErrIncompatibleEntity refuses an acceptance whose billing country the
// seller's contractual entity does not serve.
var ErrIncompatibleEntity = errors.New("the billing country is not one the seller's contractual entity serves")

// SellerTerms are what the offer's customer is shown with it: the seller, the
// entity financing the offer and the countries it bills to.
type SellerTerms struct {
	Seller           sellers.Profile
	Entity           string
	BillingCountries []string
}

// Seller is the offer's seller as its customer sees it, with the entity
// financing the offer and the billing countries it serves.
func (c *CustomerOffers) Seller(ctx context.Context, o offers.Stored) (SellerTerms, error) {
	p, err := sellers.Load(ctx, c.Offers.Store.Queries, o.Row.SellerID)
	if err != nil {
		return SellerTerms{}, err
	}
	entity, countries, _ := c.Entities(p.ContractualEntity)
	if countries == nil {
		countries = []string{}
	}
	return SellerTerms{Seller: p, Entity: entity, BillingCountries: countries}, nil
}

// Price prices the offer with the customer's choices, the given ones
// replacing those stored, and the discount accepted with it, if any. A
// choice the offer does not allow is a *pricing.RefusedSelection.
func (c *CustomerOffers) Price(o offers.Stored, choices []offers.Choice) (pricing.CustomerPrices, error) {
	var discount *pricing.Discount
	if a := o.Document.Agreement(); a != nil && a.Discount != nil {
		discount = new(a.Discount.Pricing())
	}
	return c.Offers.Builder.Engine.PriceForCustomer(o.Document.CheckoutRequest(choices, discount))
}

// Choose stores the customer's choice of terms and services for some
// lines; the other lines keep theirs.
func (c *CustomerOffers) Choose(ctx context.Context, o offers.Stored, choices []offers.Choice) (offers.Stored, error) {
	if _, err := c.Price(o, choices); err != nil {
		return offers.Stored{}, err
	}
	return c.change(ctx, o, offers.CustomerChange{Choices: choices})
}

// SetEndCustomer stores the customer's company and person, once every
// field passes package checkout's rules; else a *ValidationFailed names
// every bad one.
func (c *CustomerOffers) SetEndCustomer(ctx context.Context, o offers.Stored, info endcustomer.EndCustomerInfo) (offers.Stored, error) {
	terms, err := c.Seller(ctx, o)
	if err != nil {
		return offers.Stored{}, err
	}
	valid, problems := endcustomer.ValidateEndCustomer(info, terms.BillingCountries)
	if len(problems) > 0 {
		return offers.Stored{}, invalidFields("the customer's data", problems)
	}
	return c.change(ctx, o, offers.CustomerChange{EndCustomer: new(offers.EndCustomerOf(valid))})
}

// SetShippingAddress stores where the goods go.
func (c *CustomerOffers) SetShippingAddress(ctx context.Context, o offers.Stored, a endcustomer.ShippingAddress) (offers.Stored, error) {
	valid, problems := endcustomer.ValidateShippingAddress("", a, nil)
	if len(problems) > 0 {
		return offers.Stored{}, invalidFields("the shipping address", problems)
	}
	return c.change(ctx, o, offers.CustomerChange{ShippingAddress: new(offers.ShippingAddressOf(valid))})
}

func (c *CustomerOffers) change(ctx context.Context, o offers.Stored, change offers.CustomerChange) (offers.Stored, error) {
	sellerID, offerID := o.Row.SellerID, o.Row.ID
	err := entity.Update(ctx, c.Offers.Temporal, offer.WorkflowID(offerID), offer.CustomerChange.Update, nil, offer.CustomerChangeRequest{Change: change})
	if err := c.Offers.explain(ctx, sellerID, offerID, offer.CustomerChange, err); err != nil {
		return offers.Stored{}, err
	}
	return c.Offers.Get(ctx, sellerID, offerID)
}

// Acceptance is what the customer sends to accept an offer.
type Acceptance struct {
	LastUpdatedAt    time.Time
	DiscountCode     string
	RiskSessionToken string
}

// Accept submits the offer for review as its customer accepted it, after
// the prerequisites in this order: the offer is open (else the status
// refusal), unchanged since the customer read it (OutOfDate), the
// customer's data and shipping address complete (*ValidationFailed), the
// billing country served by the seller's contractual entity
// (ErrIncompatibleEntity), a required identity verification verified and
// a required payment method given (*ValidationFailed). A discount code must apply (*discounts.Invalid);
// it is redeemed in the transaction that moves the offer, so it counts
// once however the requests race.
func (c *CustomerOffers) Accept(ctx context.Context, o offers.Stored, in Acceptance) (offers.Stored, error) {
	status := offers.Status(o.Row.Status)
	if !offer.Transitions.Allows(status, offer.SubmitForReview.Update) {
		return offers.Stored{}, offer.Transitions.Refusal(status, offer.SubmitForReview.Update)
	}
	if !o.Row.UpdatedAt.Equal(in.LastUpdatedAt) {
		return offers.Stored{}, refusal.New(refusal.OutOfDate, "last_updated_at %s is not the offer's updated_at %s: read the offer again before accepting",
			in.LastUpdatedAt.UTC().Format(time.RFC3339Nano), o.Row.UpdatedAt.UTC().Format(time.RFC3339Nano))
	}
	if missing := missingForAcceptance(o.Document); len(missing) > 0 {
		return offers.Stored{}, invalidFields("the offer cannot be accepted yet", missing)
	}
	terms, err := c.Seller(ctx, o)
	if err != nil {
		return offers.Stored{}, err
	}
	if billing := o.Document.EndCustomer().BillingAddress.CountryCode; !slices.Contains(terms.BillingCountries, billing) {
		return offers.Stored{}, fmt.Errorf("%w: %s is not one of %s", ErrIncompatibleEntity, billing, strings.Join(terms.BillingCountries, ", "))
	}
	if err := c.verified(ctx, o); err != nil {
		return offers.Stored{}, err
	}
	if err := c.paid(ctx, o, terms); err != nil {
		return offers.Stored{}, err
	}
	priced, applied, err := c.priceAccepted(ctx, o, in.DiscountCode)
	if err != nil {
		return offers.Stored{}, err
	}
	sub := activities.CustomerAcceptance{
		Agreement:     offers.AgreementOf(priced, applied, in.RiskSessionToken),
		DiscountCode:  in.DiscountCode,
		LastUpdatedAt: in.LastUpdatedAt,
	}
	sellerID, offerID := o.Row.SellerID, o.Row.ID
	err = entity.Update(ctx, c.Offers.Temporal, offer.WorkflowID(offerID), offer.SubmitForReview.Update, nil, offer.SubmitRequest{Checkout: &sub})
	if invalid, ok := discountRefused(err); ok {
		return offers.Stored{}, invalid
	}
	if err := c.Offers.explain(ctx, sellerID, offerID, offer.SubmitForReview, err); err != nil {
		return offers.Stored{}, err
	}
	return c.Offers.Get(ctx, sellerID, offerID)
}

// missingForAcceptance checks the stored customer data against the rules
// again and requires a shipping address; the billing country is checked
// against the contractual entity on its own (409).
func missingForAcceptance(d offers.Document) []endcustomer.FieldError {
	var info *endcustomer.EndCustomerInfo
	if e := d.EndCustomer(); e != nil {
		info = new(e.Info())
	}
	var shipping *endcustomer.ShippingAddress
	if a := d.ShippingAddress; a != nil {
		shipping = new(a.Shipping())
	}
	return endcustomer.MissingForAcceptance(info, shipping, nil, nil)
}

// verified refuses an offer whose required identity verification has not
// succeeded.
func (c *CustomerOffers) verified(ctx context.Context, o offers.Stored) error {
	latest, err := idv.Latest(ctx, c.Offers.Store.Queries, o.Row.SellerID, o.Row.ID)
	if err != nil {
		return err
	}
	if !idv.AllowsAcceptance(c.requiresIDV(o), latest, c.Now()) {
		return invalidFields("the offer cannot be accepted yet", []endcustomer.FieldError{{
			Code: endcustomer.CodeRequired, Field: "identity_verification", Message: "the customer's identity must be verified first (GET /offers/{id}/id-verification)",
		}})
	}
	return nil
}

// priceAccepted prices the offer as accepted, with the discount code if
// one is given.
func (c *CustomerOffers) priceAccepted(ctx context.Context, o offers.Stored, code string) (pricing.CustomerPrices, *offers.AppliedDiscount, error) {
	if code == "" {
		priced, err := c.Price(o, nil)
		return priced, nil, err
	}
	found, err := discounts.Check(ctx, c.Offers.Store.Queries, o.Row.SellerID, code, c.Now())
	if err != nil {
		return pricing.CustomerPrices{}, nil, err
	}
	d := found.Pricing()
	priced, err := c.Offers.Builder.Engine.PriceForCustomer(o.Document.CheckoutRequest(nil, &d))
	if errors.Is(err, pricing.ErrDiscountNotApplicable) {
		return pricing.CustomerPrices{}, nil, &discounts.Invalid{Reason: discounts.NotApplicable,
			Message: fmt.Sprintf("discount code %s does not apply to this offer as chosen: it lowers the rent, and nothing is rented", found.Code)}
	}
	if err != nil {
		return pricing.CustomerPrices{}, nil, err
	}
	applied := offers.AppliedDiscountOf(found.ID, found.Code, d)
	if priced.Overview.Discount != nil {
		applied.Monthly = priced.Overview.Discount.Monthly
	}
	return priced, &applied, nil
}

// discountRefused is the refusal of a code the acceptance's transaction
// could not redeem (another offer took its last use meanwhile).
func discountRefused(err error) (*discounts.Invalid, bool) {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != activities.DiscountRefusal {
		return nil, false
	}
	var reason string
	if app.Details(&reason) != nil {
		reason = string(discounts.NotApplicable)
	}
	return &discounts.Invalid{Reason: discounts.Reason(reason), Message: app.Message()}, true
}

func invalidFields(what string, fields []endcustomer.FieldError) *ValidationFailed {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Field
	}
	return &ValidationFailed{Message: fmt.Sprintf("%s: %d fields are invalid or missing (%s)", what, len(fields), strings.Join(names, ", ")), Fields: fields}
}
