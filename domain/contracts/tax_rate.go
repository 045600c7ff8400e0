package contracts

import (
	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
)

// maxTaxRate bounds the tax rates a price is searched for: 100 %.
const maxTaxRate = basisPointScale

// lineTaxRate is the tax rate of a rented line: its product's, which the
// monthly rent, the services and the buy-out are taxed at.
//
// An order's document keeps the Seller API's amounts of the line, and those
// carry no tax rate (orders.FromOffer copies the offer line's price, which
// omits it): the rate is the one that turns the unit price's net into its
// gross, or the monthly price's when the unit price is zero.
func lineTaxRate(line orders.Line) int64 {
	price := line.MonthlyPrice
	if line.UnitPrice != nil && line.UnitPrice.Net > 0 {
		price = *line.UnitPrice
	}
	if price.TaxRate != 0 {
		return price.TaxRate
	}
	return impliedTaxRate(price.Net, price.Gross)
}

// impliedTaxRate is the rate that turns net into gross the way
// pricing.FromNet rounds. Several rates do for a small net (99 net and 118
// gross fit 18.69 % to 19.69 %); the roundest is taken, whole percents
// before tenths before hundredths (the lowest of equally round ones), as
// tax rates are round. A pair no rate fits (a gross sent by a seller) gets
// pricing.TaxRateOf's estimate.
func impliedTaxRate(net, gross int64) int64 {
	if net <= 0 {
		return pricing.TaxRateOf(net, gross)
	}
	for _, step := range []int64{100, 10, 1} {
		for rate := int64(0); rate <= maxTaxRate; rate += step {
			if pricing.FromNet("", net, rate).Gross == gross {
				return rate
			}
		}
	}
	return pricing.TaxRateOf(net, gross)
}
