package contracts

import (
	"errors"
	"fmt"

	"github.com/tenurehq/tenure/domain/orders"
	"github.com/tenurehq/tenure/domain/pricing"
)

// Rental is what a contract is had on, taken once from its order line
// when the order is confirmed: how long, how much a month, and the
// purchase price the buy-out is priced from.
type Rental struct {
	// Months is the term the customer chose.
	Months int `json:"months"`
	// Monthly is what the customer pays a month for the whole line: net,
	// gross and the line's tax rate; the tax is Gross − Net.
	Monthly pricing.Money `json:"monthly"`
	// PurchaseNet is the net purchase price of the rented units: the unit
	// price of the line's product and of the sublines rented with it, times
	// the quantity, in Monthly's currency.
	PurchaseNet int64 `json:"purchase_net"`
}

// ErrNotRented refuses to make a contract of an order line that is not
// rented or cannot run: bought, no term, no units, no price.
var ErrNotRented = errors.New("the order line cannot be a rental contract")

// RentalOf is the rental of a rented order line.
//
// The monthly net is, for the line's quantity q,
//
//	q × (monthly price + rented sublines' monthly prices + services' monthly prices) − monthly discount
//
// because the order line keeps its monthly price and each service's per
// unit and month, and its discount for the quantity (orders.Line). A line
// agreed at checkout holds its sublines' rent in its own monthly price and
// theirs are zero; a line accepted without one (the sandbox's simulations)
// keeps each subline's rent per unit, which, as pricing.PriceLine has it,
// comes with every unit of the line.
//
// The monthly gross is that net taxed at the line's rate and rounded once,
// half away from zero (pricing.FromNet), so that every installment, and
// any invoice of them, has tax = net × rate exactly as rounded. The net is
// the one the customer agreed to at checkout; the gross can differ from the
// checkout's by a few cents, as the checkout added up gross amounts each
// rounded per unit (half a cent off each at most).
func RentalOf(line orders.Line) (Rental, error) {
	switch {
	case line.ContractType != orders.Rent:
		return Rental{}, fmt.Errorf("%w: its contract type is %q, not %q", ErrNotRented, line.ContractType, orders.Rent)
	case line.Duration < 1:
		return Rental{}, fmt.Errorf("%w: a rented line runs at least one month, got %d", ErrNotRented, line.Duration)
	case line.Quantity < 1:
		return Rental{}, fmt.Errorf("%w: a rented line has at least one unit, got %d", ErrNotRented, line.Quantity)
	case line.UnitPrice == nil:
		return Rental{}, fmt.Errorf("%w: the line has no unit price to price its buy-out from", ErrNotRented)
	case line.MonthlyPrice.Currency == "":
		return Rental{}, fmt.Errorf("%w: the line's monthly price has no currency", ErrNotRented)
	}
	currency, q := line.MonthlyPrice.Currency, line.Quantity
	perUnit := []pricing.Money{line.MonthlyPrice}
	purchase := []pricing.Money{*line.UnitPrice}
	for i, sub := range line.Sublines {
		if sub.ContractType != orders.Rent {
			continue // bought outright with the order, not part of the contract
		}
		if sub.Duration != line.Duration {
			return Rental{}, fmt.Errorf("%w: subline %d is rented for %d months, its line for %d", ErrNotRented, i, sub.Duration, line.Duration)
		}
		perUnit = append(perUnit, sub.MonthlyPrice)
		if sub.UnitPrice != nil {
			purchase = append(purchase, *sub.UnitPrice)
		}
	}
	for _, s := range line.Services {
		perUnit = append(perUnit, s.Monthly)
	}
	unit, err := pricing.SumOf(currency, perUnit...)
	if err != nil {
		return Rental{}, fmt.Errorf("%w: %w", ErrNotRented, err)
	}
	parts := []pricing.Money{unit.Times(q)}
	if d := line.MonthlyDiscount; d != nil {
		parts = append(parts, pricing.Money{Currency: d.Currency, Net: -d.Net, Gross: -d.Gross})
	}
	monthly, err := pricing.SumOf(currency, parts...)
	if err != nil {
		return Rental{}, fmt.Errorf("%w: %w", ErrNotRented, err)
	}
	if monthly.Net < 0 {
		return Rental{}, fmt.Errorf("%w: its monthly amount would be %d net, below zero", ErrNotRented, monthly.Net)
	}
	unitPurchase, err := pricing.SumOf(currency, purchase...)
	if err != nil {
		return Rental{}, fmt.Errorf("%w: %w", ErrNotRented, err)
	}
	return Rental{
		Months:      line.Duration,
		Monthly:     pricing.FromNet(currency, monthly.Net, lineTaxRate(line)),
		PurchaseNet: unitPurchase.Net * q,
	}, nil
}
