package offers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/domain/refusal"
	"github.com/tenurehq/tenure/foundation/idempotency"
	"github.com/tenurehq/tenure/foundation/links"
	"github.com/tenurehq/tenure/foundation/optional"
	"github.com/tenurehq/tenure/foundation/weburl"
)

// Link purposes of an offer's shared token.
const (
	// TokenPurpose is the purpose of the shared token in an offer's links.
	TokenPurpose = "offer"
)

// Builder turns a merchant's request into a draft: the lines found
// in the seller's catalog and priced, the payload checked against the
// rules of the spec. It reads; it never writes.
type Builder struct {
	Store     *db.Store
	Engine    *pricing.Engine
	Links     *links.Signer
	PublicURL string
	// URLs is the rule for the redirects a customer is sent to.
	URLs weburl.Rule
	Now  func() time.Time
}

// Build checks and prices a payload. It answers a *refusal.Invalid for
// values beyond Tenure's limits and a *refusal.Error for payloads the rules
// refuse.
func (b *Builder) Build(ctx context.Context, sellerID uuid.UUID, p Request, o Options) (Draft, error) {
	if err := checkInput(p, b.URLs); err != nil {
		return Draft{}, err
	}
	if len(p.Lines) == 0 {
		return Draft{}, reject(refusal.EmptyOffer, nil, "an offer needs at least one line")
	}
	if !p.ExpiresAt.After(b.Now()) {
		return Draft{}, reject(refusal.ExpiryInThePast, nil, "expires_at must be in the future, got %s", p.ExpiresAt.UTC().Format(time.RFC3339))
	}
	if p.SalesChannel == Ecommerce && p.ShippingAddress == nil {
		return Draft{}, reject(refusal.ShippingAddressRequired, nil, "shipping_address is required for sales_channel ecommerce")
	}
	seller, err := b.Store.OfferBuildingContext(ctx, dbgen.OfferBuildingContextParams{SellerID: sellerID, Reference: p.Reference})
	if err != nil {
		return Draft{}, err
	}
	if err := checkCurrencies(p, seller.Currency); err != nil {
		return Draft{}, err
	}
	if err := checkReference(seller.ReferenceHolders, p.Reference, o.Replaces); err != nil {
		return Draft{}, err
	}
	if err := b.checkShipping(ctx, sellerID, p.Shipping); err != nil {
		return Draft{}, err
	}
	products, err := b.findProducts(ctx, sellerID, p)
	if err != nil {
		return Draft{}, err
	}

	id := idempotency.NewID(ctx)
	lines, prices, err := b.priceLines(p, products)
	if err != nil {
		return Draft{}, err
	}
	overview, err := b.overview(lines, prices, p.Shipping, seller.Currency)
	if err != nil {
		return Draft{}, err
	}
	token := b.Links.Sign(TokenPurpose, id.String(), p.ExpiresAt)
	doc := Document{
		Version:         DocumentVersion,
		CheckoutURL:     fmt.Sprintf("%s/checkout/offers/%s?token=%s", b.PublicURL, id, token),
		SellerURL:       fmt.Sprintf("%s/offers/%s?token=%s", b.PublicURL, id, token),
		Customer:        optional.Value(p.Customer),
		ShippingAddress: p.ShippingAddress,
		Shipping:        p.Shipping,
		SalesAgent:      p.SalesAgent,
		Lines:           lines,
		Metadata:        p.Metadata,
		Pricing:         &overview,
	}
	createdBy := ""
	if p.SalesAgent != nil {
		createdBy = strings.ToLower(p.SalesAgent.Email)
	}
	return Draft{
		ID:                   id,
		SellerID:             sellerID,
		SellerOfferReference: p.Reference,
		SalesChannel:         p.SalesChannel,
		ExpiresAt:            p.ExpiresAt.UTC(),
		CreatedBy:            createdBy,
		Partner:              o.Partner,
		ExitRedirect:         optional.Value(p.ExitRedirect),
		SuccessRedirect:      optional.Value(p.SuccessRedirect),
		Document:             doc,
	}, nil
}

// checkCurrencies refuses amounts in another currency than the seller's
// (the catalog's), naming the lines that carry them.
func checkCurrencies(p Request, currency string) error {
	var refs []catalog.Reference
	var found []string
	mismatch := func(ref catalog.Reference, amounts ...*PriceRequest) {
		for _, a := range amounts {
			if a != nil && a.Currency != currency {
				refs = append(refs, ref)
				found = append(found, a.Currency)
				return
			}
		}
	}
	for _, l := range p.Lines {
		mismatch(l.Product, &l.Price, l.BaseRentalPrice)
		for _, s := range l.Sublines {
			mismatch(s.Product, &s.Price, s.BaseRentalPrice)
		}
	}
	if p.Shipping != nil && p.Shipping.Price.Currency != currency {
		found = append(found, p.Shipping.Price.Currency)
	}
	if len(found) == 0 {
		return nil
	}
	return reject(refusal.CurrenciesMismatch, refs, "every amount must be in the seller's currency %s, found %s", currency, strings.Join(found, ", "))
}

// checkReference refuses the reference of an active offer, unless it is
// the offer an edit replaces; at most one active offer holds a reference
// (offers_active_reference_key), so holders has none or one.
func checkReference(holders []uuid.UUID, reference string, replaces *uuid.UUID) error {
	if len(holders) == 0 || replaces != nil && holders[0] == *replaces {
		return nil
	}
	return ReferenceInUse(reference)
}

func (b *Builder) checkShipping(ctx context.Context, sellerID uuid.UUID, s *Shipping) error {
	if s == nil {
		return nil
	}
	method, err := b.Store.GetShippingMethodByReference(ctx, dbgen.GetShippingMethodByReferenceParams{
		SellerID: sellerID, SellerShippingMethodReference: s.Reference,
	})
	if db.IsNotFound(err) || (err == nil && !method.Supported) {
		return reject(refusal.ShippingMethodNotSupported, nil, "shipping method %q is not a supported shipping method of the seller", s.Reference)
	}
	if err != nil {
		return err
	}
	if s.Price.Net < 0 || s.Price.Gross < s.Price.Net {
		return invalid("field shipping.price must have 0 <= net <= gross, got net %d and gross %d", s.Price.Net, s.Price.Gross)
	}
	return nil
}

// catalogProducts are the catalog items the payload's lines name.
type catalogProducts map[catalog.Reference]catalog.Item

// findProducts looks up every line and subline in the catalog: all must
// exist and be financeable.
func (b *Builder) findProducts(ctx context.Context, sellerID uuid.UUID, p Request) (catalogProducts, error) {
	var refs []catalog.Reference
	for _, l := range p.Lines {
		refs = append(refs, l.Product)
		for _, s := range l.Sublines {
			refs = append(refs, s.Product)
		}
	}
	found, err := catalog.FindItemsByReferences(ctx, b.Store.Queries, sellerID, refs)
	if err != nil {
		return nil, err
	}
	var missing, unsupported []catalog.Reference
	for _, r := range refs {
		item, ok := found[r]
		switch {
		case !ok:
			missing = append(missing, r)
		case !catalog.Sellable(item.Product):
			unsupported = append(unsupported, r)
		}
	}
	if len(missing) > 0 {
		return nil, reject(refusal.ProductsNotFound, missing, "%d product reference(s) are not in the catalog", len(missing))
	}
	if len(unsupported) > 0 {
		return nil, reject(refusal.ProductsNotSupported, unsupported, "%d product(s) cannot be financed (unsupported, inactive or archived)", len(unsupported))
	}
	return found, nil
}
