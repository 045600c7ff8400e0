package offers

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/api/apiview"
	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/catalog"
	"github.com/tenurehq/tenure/pricing"
)

// lineInput is what a line and a subline of a payload have in common.
type lineInput struct {
	field    string
	title    string
	subtitle *string
	quantity int64
	ref      sellerapi.SellerProductReference
	price    sellerapi.OfferPriceInput
	base     *sellerapi.OfferPriceInput
}

// priceLines prices every line with its sublines. A line's contract terms
// are those of one unit of its product; its pricing summary (priceLine)
// includes the sublines.
func (b *Builder) priceLines(p sellerapi.OfferCreateRequest, products catalogProducts) ([]sellerapi.OfferLine, []pricing.LinePrice, error) {
	lines := make([]sellerapi.OfferLine, len(p.Lines))
	prices := make([]pricing.LinePrice, len(p.Lines))
	for i, l := range p.Lines {
		main := lineInput{fmt.Sprintf("lines[%d]", i), l.Title, l.Subtitle, l.Quantity, l.SellerProductReference, l.Price, l.BaseRentalPrice}
		mainView, mainProduct, err := b.offerLine(main, products)
		if err != nil {
			return nil, nil, err
		}
		var subViews []sellerapi.OfferSubline
		var subProducts []pricing.Product
		for j, s := range deref(l.SubLines) {
			in := lineInput{fmt.Sprintf("%s.sub_lines[%d]", main.field, j), s.Title, s.Subtitle, s.Quantity, s.SellerProductReference, s.Price, s.BaseRentalPrice}
			view, product, err := b.offerLine(in, products)
			if err != nil {
				return nil, nil, err
			}
			subViews = append(subViews, view)
			subProducts = append(subProducts, product)
		}
		price, err := b.Engine.PriceLine(pricing.Line{Main: mainProduct, Sublines: subProducts, Quantity: l.Quantity})
		if err != nil {
			return nil, nil, invalid("%s: %v", main.field, err)
		}
		lines[i] = withSublines(mainView, subViews)
		prices[i] = price
	}
	return lines, prices, nil
}

// offerLine prices one unit of a line's (or subline's) product, with the
// payload's prices overriding the catalog's.
func (b *Builder) offerLine(in lineInput, products catalogProducts) (sellerapi.OfferSubline, pricing.Product, error) {
	item := products[apiview.CatalogReference(in.ref)]
	product := catalog.PricingProduct(item.Product)
	price, err := payloadPrice(in.field+".price", in.price, item.TaxRate)
	if err != nil {
		return sellerapi.OfferSubline{}, product, err
	}
	product.Price = price
	if in.base != nil {
		base, err := payloadPrice(in.field+".base_rental_price", *in.base, item.TaxRate)
		if err != nil {
			return sellerapi.OfferSubline{}, product, err
		}
		product.BaseRentalPrice = &base
	}
	refs := make([]sellerapi.SellerProductReference, len(item.References))
	for i, r := range item.References {
		refs[i] = apiview.Reference(r)
	}
	terms := &sellerapi.OfferLineContractTerms{PayNow: apiview.PayNowTerm(product.Price)}
	if rec, ok := b.Engine.Recommended(b.Engine.Rent(product)); ok {
		rent := apiview.RentTerm(rec)
		terms.Rent = &rent
	}
	productID := item.ID.String()
	view := sellerapi.OfferSubline{
		AvailableContractTerms:  terms,
		Id:                      uuid.Must(uuid.NewV7()).String(),
		Origin:                  item.Origin,
		PrettyId:                nonEmpty(item.PrettyID),
		Price:                   apiview.Money(product.Price),
		PricingCategory:         item.PricingCategory,
		ProductId:               &productID,
		Quantity:                in.quantity,
		SellerProductReferences: refs,
		Subtitle:                in.subtitle,
		Title:                   in.title,
	}
	if product.BaseRentalPrice != nil {
		base := apiview.Money(*product.BaseRentalPrice)
		view.BaseRentalPrice = &base
	}
	return view, product, nil
}

// payloadPrice checks a price a payload sends; without a gross amount, the
// gross follows from the product's tax rate.
func payloadPrice(field string, in sellerapi.OfferPriceInput, taxRate int64) (pricing.Money, error) {
	m := catalog.Money{Currency: in.Currency, Net: in.Net}
	if in.Gross != nil {
		m.Gross = *in.Gross
	} else {
		m.Gross = pricing.FromNet(in.Currency, in.Net, taxRate).Gross
		m.TaxRate = &taxRate
	}
	valid, err := catalog.ValidateMoney(field, m, in.Currency)
	if err != nil {
		return pricing.Money{}, invalid("field %v", err)
	}
	return valid, nil
}

// withSublines makes a line of a priced unit and its sublines.
func withSublines(s sellerapi.OfferSubline, subs []sellerapi.OfferSubline) sellerapi.OfferLine {
	line := sellerapi.OfferLine{
		AvailableContractTerms:  s.AvailableContractTerms,
		BaseRentalPrice:         s.BaseRentalPrice,
		Id:                      s.Id,
		Origin:                  s.Origin,
		PrettyId:                s.PrettyId,
		Price:                   s.Price,
		PricingCategory:         s.PricingCategory,
		ProductId:               s.ProductId,
		Quantity:                s.Quantity,
		SellerProductReferences: s.SellerProductReferences,
		Subtitle:                s.Subtitle,
		Title:                   s.Title,
	}
	if len(subs) > 0 {
		line.Sublines = &subs
	}
	return line
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
