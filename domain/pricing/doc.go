// Package pricing computes what renting or buying a product costs: the
// monthly rent for every offered term, pay-now amounts, totals for
// quantities and service sublines, and the localized one-line summaries
// shops show next to a product.
//
// The package is pure and deterministic: no database, no configuration
// loading (the caller passes a Config), no clock. All money is integer minor
// units of the currency (cents) and tax rates are percent × 100 (1900 is
// 19 %), so no floating point is involved anywhere.
//
// # How rent is computed
//
// The basis of a product is the net amount of its base rental price when it
// has one, else the net amount of its price. A product whose basis is below
// Config.MinRentBasis is offered for paying now only. Otherwise the monthly
// net rent for a term of d months is
//
//	round(basis × rate(category, d) / 10000)
//
// where the rate is in basis points of the basis per month (350 is 3.50 %).
// The monthly gross rent is round(net × (10000 + tax rate) / 10000) with the
// tax rate of the amount the basis came from.
//
// # Rounding
//
// Every division rounds half away from zero, and rounding happens exactly
// once per unit amount (net, then gross from that net). Totals for
// quantities and sublines are sums and products of those rounded unit
// amounts, never re-rounded, so a total always equals the sum of its parts.
// Because Config refuses rates that grow with the term, and rounding is
// monotonic, a longer term never has a higher monthly amount; and because
// tax rates are never negative, gross is never below net.
//
// # The customer's checkout
//
// PriceCheckout takes an offer's lines as PriceLine priced them and the end
// customer's choice per line (pay now or rent over one of the line's terms,
// first-party services with rent) and prices the offer that way: every
// line's terms and services with stable ids, what each line costs at once
// and monthly, a Discount off the monthly rent, and the overview (rent
// info, first payment, purchase amount). CheckoutOverview defines each
// amount; like the totals above, each is a sum of rounded line amounts.
package pricing
