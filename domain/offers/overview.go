package offers

import (
	"fmt"

	"github.com/tenurehq/tenure/domain/pricing"
)

// overview sums the priced lines. The total is the monthly rent of the
// recommended term when every line can be rented, else the price of buying
// everything plus shipping; the purchase price is always shown as the
// amount renting replaces (instead_of_amount).
func (b *Builder) overview(lines []Line, prices []pricing.LinePrice, shipping *Shipping, currency string) (Pricing, error) {
	totals, err := b.Engine.Total(prices)
	if err != nil {
		return Pricing{}, invalid("lines: %v", err)
	}
	out := Pricing{InsteadOf: withoutTax(totals.PayNow)}
	out.Items = make([]ItemSummary, len(lines))
	for i, p := range prices {
		out.Items[i] = ItemSummary{
			LineID:                  lines[i].ID,
			PayNow:                  payNow(p.PayNow),
			PayNowExcludingSublines: payNow(p.PayNowExcludingSublines),
			Rent:                    rentAmounts(p.Rent),
			RentExcludingSublines:   rentAmounts(p.RentExcludingSublines),
			TotalPayNow:             payNow(p.TotalPayNow),
			TotalRent:               rentAmounts(p.TotalRent),
		}
	}
	shippingAmount := pricing.Money{Currency: currency}
	if shipping != nil {
		shippingAmount = shipping.Price
	}
	out.Shipping = &shippingAmount
	if rec, ok := b.Engine.Recommended(totals.Rent); ok {
		out.Total = withoutTax(rec.Monthly)
		out.Breakdown = append(out.Breakdown, BreakdownLine{
			Amount: out.Total, Title: fmt.Sprintf("Monthly rent over %d months", rec.Duration),
		})
	} else {
		total, err := pricing.Sum(totals.PayNow, pricing.Money{Currency: currency, Net: shippingAmount.Net, Gross: shippingAmount.Gross})
		if err != nil {
			return Pricing{}, invalid("shipping.price: %v", err)
		}
		out.Total = withoutTax(total)
	}
	out.Breakdown = append(out.Breakdown, BreakdownLine{Amount: withoutTax(totals.PayNow), Title: "Purchase price"})
	if shipping != nil {
		out.Breakdown = append(out.Breakdown, BreakdownLine{Amount: shippingAmount, Title: "Shipping"})
	}
	return out, nil
}

func payNow(m pricing.Money) PayNowAmount { return PayNowAmount{Amount: withoutTax(m)} }

// rentAmounts lists monthly amounts per term, an empty list when the item
// cannot be rented (the contract requires the field).
func rentAmounts(terms []pricing.Term) []RentTerm {
	out := make([]RentTerm, len(terms))
	for i, t := range terms {
		out[i] = RentTerm{Duration: t.Duration, Monthly: withoutTax(t.Monthly)}
	}
	return out
}
