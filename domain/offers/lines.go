package offers

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/domain/catalog"
	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/optional"
)

// priceLines prices every line with its sublines. A line's contract terms
// are those of one unit of its product; its pricing summary (priceLine)
// includes the sublines.
func (b *Builder) priceLines(p Request, products catalogProducts) ([]Line, []pricing.LinePrice, error) {
	lines := make([]Line, len(p.Lines))
	prices := make([]pricing.LinePrice, len(p.Lines))
	for i, l := range p.Lines {
		field := fmt.Sprintf("lines[%d]", i)
		line, mainProduct, err := b.offerLine(field, l, products)
		if err != nil {
			return nil, nil, err
		}
		var subProducts []pricing.Product
		for j, s := range l.Sublines {
			sub, product, err := b.offerLine(fmt.Sprintf("%s.sub_lines[%d]", field, j), s, products)
			if err != nil {
				return nil, nil, err
			}
			line.Sublines = append(line.Sublines, sub)
			subProducts = append(subProducts, product)
		}
		price, err := b.Engine.PriceLine(pricing.Line{Main: mainProduct, Sublines: subProducts, Quantity: l.Quantity})
		if err != nil {
			return nil, nil, invalid("%s: %v", field, err)
		}
		lines[i] = line
		prices[i] = price
	}
	return lines, prices, nil
}

// offerLine prices one unit of a line's (or subline's) product, with the
// request's prices overriding the catalog's; sublines are left to the
// caller.
func (b *Builder) offerLine(field string, in LineRequest, products catalogProducts) (Line, pricing.Product, error) {
	item := products[in.Product]
	product := catalog.PricingProduct(item.Product)
	price, err := requestedPrice(field+".price", in.Price, item.TaxRate)
	if err != nil {
		return Line{}, product, err
	}
	product.Price = price
	if in.BaseRentalPrice != nil {
		base, err := requestedPrice(field+".base_rental_price", *in.BaseRentalPrice, item.TaxRate)
		if err != nil {
			return Line{}, product, err
		}
		product.BaseRentalPrice = &base
	}
	terms := &Terms{PayNow: &PayNowTerm{Amount: product.Price, ID: pricing.PayNowTermID}}
	if rec, ok := b.Engine.Recommended(b.Engine.Rent(product)); ok {
		terms.Rent = &RentTerm{Duration: rec.Duration, ID: pricing.RentTermID(rec.Duration), Monthly: rec.Monthly}
	}
	productID := item.ID
	line := Line{
		ID:              uuid.Must(uuid.NewV7()).String(),
		Title:           in.Title,
		Subtitle:        in.Subtitle,
		Quantity:        in.Quantity,
		ProductID:       &productID,
		PrettyID:        optional.NonZero(item.PrettyID),
		Origin:          item.Origin,
		PricingCategory: item.PricingCategory,
		References:      item.References,
		Price:           withoutTax(product.Price),
		Terms:           terms,
	}
	if product.BaseRentalPrice != nil {
		base := withoutTax(*product.BaseRentalPrice)
		line.BaseRentalPrice = &base
	}
	return line, product, nil
}

// requestedPrice checks a price a request sends; without a gross amount,
// the gross follows from the product's tax rate.
func requestedPrice(field string, in PriceRequest, taxRate int64) (pricing.Money, error) {
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

// withoutTax is an amount where a document shows none: the Seller API's
// prices of lines carry no tax rate.
func withoutTax(m pricing.Money) pricing.Money {
	m.TaxRate = 0
	return m
}
