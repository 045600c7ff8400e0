package pricing

import (
	"errors"
	"fmt"
)

// Money is an amount in integer minor units of its currency, with the tax
// rate (percent × 100) that relates net and gross. Its JSON is the Seller
// API's amount, which offer documents store.
type Money struct {
	Currency string `json:"currency"`
	Net      int64  `json:"net"`
	Gross    int64  `json:"gross"`
	TaxRate  int64  `json:"tax_rate,omitempty"`
}

// ErrMixedCurrencies refuses a sum of amounts in different currencies.
var ErrMixedCurrencies = errors.New("amounts in different currencies cannot be added")

// taxScale is the denominator of tax rates and monthly rates: 1900 is 19 %.
const taxScale = 10000

// divRound divides and rounds half away from zero; den must be positive.
func divRound(num, den int64) int64 {
	if num < 0 {
		return -divRound(-num, den)
	}
	return (2*num + den) / (2 * den)
}

// FromNet is the amount with the given net, its gross computed by the tax
// rate.
func FromNet(currency string, net, taxRate int64) Money {
	return Money{Currency: currency, Net: net, Gross: divRound(net*(taxScale+taxRate), taxScale), TaxRate: taxRate}
}

// TaxRateOf derives the tax rate (percent × 100) that turns net into gross,
// rounded half away from zero; 0 when net is not positive.
func TaxRateOf(net, gross int64) int64 {
	if net <= 0 {
		return 0
	}
	return divRound((gross-net)*taxScale, net)
}

// Times is the amount for a quantity of units; no rounding happens.
func (m Money) Times(quantity int64) Money {
	return Money{Currency: m.Currency, Net: m.Net * quantity, Gross: m.Gross * quantity, TaxRate: m.TaxRate}
}

// Sum adds amounts of one currency. The result keeps the tax rate the parts
// share, or, when they differ, states the effective rate of the sum.
func Sum(parts ...Money) (Money, error) {
	if len(parts) == 0 {
		return Money{}, errors.New("nothing to add")
	}
	total := Money{Currency: parts[0].Currency, TaxRate: parts[0].TaxRate}
	sameRate := true
	for _, p := range parts {
		if p.Currency != total.Currency {
			return Money{}, fmt.Errorf("%w: %s and %s", ErrMixedCurrencies, total.Currency, p.Currency)
		}
		sameRate = sameRate && p.TaxRate == total.TaxRate
		total.Net += p.Net
		total.Gross += p.Gross
	}
	if !sameRate {
		total.TaxRate = TaxRateOf(total.Net, total.Gross)
	}
	return total, nil
}

// Minus is the amount less another of its currency. The result keeps the
// tax rate both share (or the amount's, when nothing is taken off), else it
// states its effective rate.
func (m Money) Minus(o Money) Money {
	if o.Net == 0 && o.Gross == 0 {
		return m
	}
	out := Money{Currency: m.Currency, Net: m.Net - o.Net, Gross: m.Gross - o.Gross, TaxRate: m.TaxRate}
	if o.TaxRate != m.TaxRate {
		out.TaxRate = TaxRateOf(out.Net, out.Gross)
	}
	return out
}

// SumOf adds amounts of a currency, zero when there are none. Zero amounts
// count for nothing, not even for the tax rate of the sum.
func SumOf(currency string, parts ...Money) (Money, error) {
	var nonZero []Money
	for _, p := range parts {
		if p.Net != 0 || p.Gross != 0 {
			nonZero = append(nonZero, p)
		}
	}
	if len(nonZero) == 0 {
		return Money{Currency: currency}, nil
	}
	total, err := Sum(nonZero...)
	if err == nil && total.Currency != currency {
		err = fmt.Errorf("%w: %s and %s", ErrMixedCurrencies, currency, total.Currency)
	}
	return total, err
}
