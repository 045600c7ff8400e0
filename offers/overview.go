package offers

import (
	"fmt"

	"github.com/tenurehq/tenure/api/apiview"
	"github.com/tenurehq/tenure/api/sellerapi"
	"github.com/tenurehq/tenure/pricing"
)

// overview sums the priced lines. The total is the monthly rent of the
// recommended term when every line can be rented, else the price of buying
// everything plus shipping; the purchase price is always shown as the
// amount renting replaces (instead_of_amount).
func (b *Builder) overview(lines []sellerapi.OfferLine, prices []pricing.LinePrice, shipping *sellerapi.OfferShipping, currency string) (sellerapi.PricingOverview, error) {
	totals, err := b.Engine.Total(prices)
	if err != nil {
		return sellerapi.PricingOverview{}, invalid("lines: %v", err)
	}
	out := sellerapi.PricingOverview{InsteadOfAmount: apiview.Money(totals.PayNow)}
	summaries := make([]sellerapi.ItemPriceSummary, len(lines))
	for i, p := range prices {
		summaries[i] = sellerapi.ItemPriceSummary{
			Identifier:              lines[i].Id,
			PayNow:                  sellerapi.PayNowAmount{PayNowAmount: apiview.Money(p.PayNow)},
			PayNowExcludingSublines: sellerapi.PayNowAmount{PayNowAmount: apiview.Money(p.PayNowExcludingSublines)},
			Rent:                    rentAmounts(p.Rent),
			RentExcludingSublines:   rentAmounts(p.RentExcludingSublines),
			TotalPayNow:             sellerapi.PayNowAmount{PayNowAmount: apiview.Money(p.TotalPayNow)},
			TotalRent:               rentAmounts(p.TotalRent),
		}
	}
	out.ItemsSummaries = &summaries

	shippingAmount := sellerapi.Money{Currency: currency}
	if shipping != nil {
		shippingAmount = shipping.Price
	}
	out.ShippingAmount = &shippingAmount
	if rec, ok := b.Engine.Recommended(totals.Rent); ok {
		out.TotalAmount = apiview.Money(rec.Monthly)
		out.Breakdown = append(out.Breakdown, sellerapi.PriceBreakdownLine{
			Amount: out.TotalAmount, Title: fmt.Sprintf("Monthly rent over %d months", rec.Duration),
		})
	} else {
		total, err := pricing.Sum(totals.PayNow, pricing.Money{Currency: currency, Net: shippingAmount.Net, Gross: shippingAmount.Gross})
		if err != nil {
			return sellerapi.PricingOverview{}, invalid("shipping.price: %v", err)
		}
		out.TotalAmount = apiview.Money(total)
	}
	out.Breakdown = append(out.Breakdown, sellerapi.PriceBreakdownLine{Amount: apiview.Money(totals.PayNow), Title: "Purchase price"})
	if shipping != nil {
		out.Breakdown = append(out.Breakdown, sellerapi.PriceBreakdownLine{Amount: shippingAmount, Title: "Shipping"})
	}
	return out, nil
}

// rentAmounts lists monthly amounts per term, an empty list when the item
// cannot be rented (the contract requires the field).
func rentAmounts(terms []pricing.Term) []sellerapi.RentAmount {
	out := make([]sellerapi.RentAmount, len(terms))
	for i, t := range terms {
		out[i] = sellerapi.RentAmount{Duration: sellerapi.RentalTermMonths(t.Duration), MonthlyAmount: apiview.Money(t.Monthly)}
	}
	return out
}
