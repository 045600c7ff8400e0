package pricing

import "slices"

// CustomerOverview sums an offer as the customer chose it. Every amount is
// a sum of the lines' amounts (never re-rounded):
//
//   - RentOnly: the monthly rent of the rented lines after the discount,
//     without services (rent_only_amount);
//   - TotalRent: RentOnly plus the selected services, what the customer
//     pays every month while every rented line's term runs (total_rent);
//   - TenureLines: TotalRent split by term length, shortest first, as each
//     amount ends with its term (tenure_lines);
//   - Purchase: the bought lines' price (total_purchase_amount);
//   - FirstPaymentWithoutShipping: Purchase plus the first month of
//     TotalRent; FirstPayment adds Shipping: the customer's first payment;
//   - InsteadOf: what buying the rented lines would cost, the amount
//     renting replaces; ShowInsteadOf when a line is rented.
type CustomerOverview struct {
	RentOnly                    Money
	TenureLines                 []TenureLine
	TotalRent                   Money
	Purchase                    Money
	Shipping                    Money
	FirstPaymentWithoutShipping Money
	FirstPayment                Money
	InsteadOf                   Money
	ShowInsteadOf               bool
	// Discount is set when a discount applies.
	Discount *AppliedDiscount
	// Items are the lines' prices for every term, whatever was chosen
	// (items_summaries, as in the Seller API).
	Items []ItemSummary
}

// TenureLine is the monthly amount of the rented lines of one term length.
type TenureLine struct {
	Duration int
	Amount   Money
}

// AppliedDiscount is a discount and what it takes off each month, the sum
// of the lines' discounts.
type AppliedDiscount struct {
	ID      string
	Monthly Money
}

// ItemSummary is one line's prices for every term.
type ItemSummary struct {
	Identifier string
	Price      LinePrice
}

// overviewOf sums the priced lines.
func overviewOf(r CustomerRequest, lines []CustomerLine) CustomerOverview {
	sum := func(parts []Money) Money {
		// Every part is in the request's currency (check refused others).
		total, _ := SumOf(r.Currency, parts...)
		return total
	}
	var once, rentOnly, monthly, insteadOf, discounts []Money
	byDuration := map[int][]Money{}
	for i, l := range lines {
		once = append(once, l.Once)
		if l.Selected.Type != ContractRent {
			continue
		}
		rentOnly = append(rentOnly, l.MonthlyRent.Minus(l.MonthlyDiscount))
		monthly = append(monthly, l.Monthly)
		insteadOf = append(insteadOf, r.Lines[i].Price.TotalPayNow)
		discounts = append(discounts, l.MonthlyDiscount)
		byDuration[l.Selected.Duration] = append(byDuration[l.Selected.Duration], l.Monthly)
	}
	shipping := r.Shipping
	shipping.Currency = r.Currency
	o := CustomerOverview{
		RentOnly:      sum(rentOnly),
		TotalRent:     sum(monthly),
		Purchase:      sum(once),
		Shipping:      shipping,
		InsteadOf:     sum(insteadOf),
		ShowInsteadOf: len(monthly) > 0,
	}
	durations := make([]int, 0, len(byDuration))
	for d := range byDuration {
		durations = append(durations, d)
	}
	slices.Sort(durations)
	for _, d := range durations {
		o.TenureLines = append(o.TenureLines, TenureLine{Duration: d, Amount: sum(byDuration[d])})
	}
	o.FirstPaymentWithoutShipping = sum([]Money{o.Purchase, o.TotalRent})
	o.FirstPayment = sum([]Money{o.FirstPaymentWithoutShipping, shipping})
	if r.Discount != nil {
		o.Discount = &AppliedDiscount{ID: r.Discount.ID, Monthly: sum(discounts)}
	}
	for i, l := range r.Lines {
		o.Items = append(o.Items, ItemSummary{Identifier: lines[i].LineID, Price: l.Price})
	}
	return o
}
