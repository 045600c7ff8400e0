package pricing

import (
	"errors"
	"fmt"
	"math/bits"
)

// Discount lowers the monthly rent of an offer's rented lines, for their
// whole term: either by a percentage or by a fixed amount a month. Services
// and bought lines are never discounted: the seller grants the discount on
// its own products, and a rental's price is its monthly rent.
type Discount struct {
	// ID names the discount (its code's id) in the overview.
	ID string
	// BasisPoints off each rented line's monthly rent (1000 is 10 %); set
	// for a percentage discount.
	BasisPoints int64
	// FixedNet is taken off the monthly rent of the rented lines together,
	// in net minor units of Currency; set for a fixed discount.
	FixedNet int64
	// Currency of FixedNet.
	Currency string
}

// ErrDiscountNotApplicable says a valid discount does not apply to an
// offer as chosen: nothing is rented, or a fixed amount is in another
// currency.
var ErrDiscountNotApplicable = errors.New("the discount does not apply to this offer")

// maxFixedDiscount bounds a fixed discount: one million units a month.
const maxFixedDiscount = 100_000_000

// Validate checks that a discount is exactly one of a percentage of 0.01 %
// to 100 % and a positive fixed amount with its currency.
func (d Discount) Validate() error {
	switch {
	case d.BasisPoints == 0 && d.FixedNet == 0:
		return errors.New("a discount needs a percentage or a fixed amount")
	case d.BasisPoints != 0 && d.FixedNet != 0:
		return errors.New("a discount is either a percentage or a fixed amount, not both")
	case d.BasisPoints != 0:
		if d.BasisPoints < 1 || d.BasisPoints > taxScale {
			return fmt.Errorf("a percentage discount must be between 1 and %d basis points, got %d", taxScale, d.BasisPoints)
		}
	case d.FixedNet < 1 || d.FixedNet > maxFixedDiscount:
		return fmt.Errorf("a fixed discount must be between 1 and %d minor units, got %d", maxFixedDiscount, d.FixedNet)
	case d.Currency == "":
		return errors.New("a fixed discount needs its currency")
	}
	return nil
}

// split takes the discount off the monthly rents of the rented lines
// (totals for their quantities, before services) and answers each line's
// monthly discount.
//
// A percentage is rounded half away from zero on each line's net and gross
// separately. A fixed amount, capped at the rents' net sum, is shared in
// proportion to the lines' net rents (largest remainder, earlier line on a
// tie, so the shares add up to the amount exactly); a share's gross is its
// line's gross rent in the same proportion. Either way no line's discount
// exceeds its rent, net or gross.
func (d Discount) split(currency string, rents []Money) ([]Money, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if len(rents) == 0 {
		return nil, fmt.Errorf("%w: no line is rented", ErrDiscountNotApplicable)
	}
	out := make([]Money, len(rents))
	if d.BasisPoints != 0 {
		for i, r := range rents {
			out[i] = Money{Currency: currency, Net: divRound(r.Net*d.BasisPoints, taxScale), Gross: divRound(r.Gross*d.BasisPoints, taxScale), TaxRate: r.TaxRate}
		}
		return out, nil
	}
	if d.Currency != currency {
		return nil, fmt.Errorf("%w: the discount is in %s, the offer in %s", ErrDiscountNotApplicable, d.Currency, currency)
	}
	var whole int64
	for _, r := range rents {
		whole += r.Net
	}
	amount := min(d.FixedNet, whole)
	remainders := make([]uint64, len(rents))
	var shared int64
	for i, r := range rents {
		share, rem := mulDiv(amount, r.Net, whole)
		out[i] = Money{Currency: currency, Net: share, TaxRate: r.TaxRate}
		remainders[i] = rem
		shared += share
	}
	for ; shared < amount; shared++ {
		best := -1
		for i, rem := range remainders {
			if best < 0 || rem > remainders[best] {
				best = i
			}
		}
		out[best].Net++
		remainders[best] = 0
	}
	for i, r := range rents {
		if r.Net > 0 {
			q, rem := mulDiv(out[i].Net, r.Gross, r.Net)
			if 2*rem >= uint64(r.Net) {
				q++
			}
			out[i].Gross = q
		}
	}
	return out, nil
}

// mulDiv is a × b / c and its remainder without overflow, for
// 0 ≤ a ≤ c and b ≥ 0 (the quotient is then at most b); 0 when c is 0.
func mulDiv(a, b, c int64) (int64, uint64) {
	if c <= 0 {
		return 0, 0
	}
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, r := bits.Div64(hi, lo, uint64(c))
	return int64(q), r
}
