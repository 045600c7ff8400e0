package invoices

import (
	"slices"

	"github.com/tenurehq/tenure/domain/pricing"
)

// Totals are an invoice's amounts in cents.
type Totals struct {
	// Rates break the amounts down by tax rate, the lowest rate first
	// (§14 (4) No. 7 and 8 UStG; EN 16931's VAT breakdown, BG-23).
	Rates []RateTotal
	// Net is the sum of the lines' net amounts (BT-106, BT-109).
	Net int64
	// Tax is the sum of the rates' taxes (BT-110).
	Tax int64
	// Gross is net plus tax (BT-112), the amount due and collected
	// (BT-115).
	Gross int64
}

// RateTotal is what an invoice's lines of one tax rate add up to.
type RateTotal struct {
	// Rate is in basis points: 1900 is 19 %.
	Rate int64
	// Net is the taxable amount (BT-116), Tax the tax (BT-117): both the
	// sums of the rate's lines.
	Net, Tax int64
}

// Totals adds up the invoice: each line's amount, per rate and in all.
// Nothing is rounded: lines are whole cents, and sums of whole cents.
func (inv Invoice) Totals() Totals {
	var t Totals
	for _, l := range inv.Lines {
		a := l.Amount()
		i := slices.IndexFunc(t.Rates, func(r RateTotal) bool { return r.Rate == l.Price.TaxRate })
		if i < 0 {
			t.Rates = append(t.Rates, RateTotal{Rate: l.Price.TaxRate})
			i = len(t.Rates) - 1
		}
		t.Rates[i].Net += a.Net
		t.Rates[i].Tax += a.Gross - a.Net
		t.Net += a.Net
		t.Tax += a.Gross - a.Net
	}
	slices.SortFunc(t.Rates, func(a, b RateTotal) int { return int(a.Rate - b.Rate) })
	t.Gross = t.Net + t.Tax
	return t
}

// TaxOfNet is a rate's tax as EN 16931 computes it from the taxable
// amount (BR-CO-17): net × rate, rounded half away from zero to the cent.
func (r RateTotal) TaxOfNet() int64 {
	m := pricing.FromNet("", r.Net, r.Rate)
	return m.Gross - m.Net
}
