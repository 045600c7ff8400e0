package pricing

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Engine prices products with one configuration. It is safe for concurrent
// use.
type Engine struct {
	durations       []int
	defaultDuration int
	minRentBasis    int64
	rates           map[string]map[int]int64
	defaultCategory string
	services        map[string]map[string]ServiceTerms
}

// New checks the configuration and builds an engine over a copy of it.
func New(c Config) (*Engine, error) {
	if ps := c.Problems(); len(ps) > 0 {
		msgs := make([]string, len(ps))
		for i, p := range ps {
			msgs[i] = p.Key + ": " + p.Message
		}
		return nil, errors.New("pricing configuration: " + strings.Join(msgs, "; "))
	}
	rates := make(map[string]map[int]int64, len(c.Rates))
	for category, byDuration := range c.Rates {
		rates[category] = make(map[int]int64, len(byDuration))
		for d, r := range byDuration {
			rates[category][d] = r
		}
	}
	return &Engine{
		durations:       sortedDurations(c.Durations),
		defaultDuration: c.DefaultDuration,
		minRentBasis:    c.MinRentBasis,
		rates:           rates,
		defaultCategory: c.DefaultCategory,
		services:        copyServices(c.Services),
	}, nil
}

// DefaultDuration is the term recommended first, in months.
func (e *Engine) DefaultDuration() int { return e.defaultDuration }

// Product is one unit of a product to price. Amounts carry their resolved
// tax rate (see TaxRateOf for amounts sent without one).
type Product struct {
	Price           Money
	BaseRentalPrice *Money
	Category        string
}

// PayNowTermID names the pay-now contract term of pricing results.
const PayNowTermID = "pay-now"

// RentTermID names the rent contract term of a duration.
func RentTermID(months int) string { return "rent-" + strconv.Itoa(months) }

// Term is the monthly rent of one term length.
type Term struct {
	Duration int
	Monthly  Money
}

// basis is the amount rent is computed from.
func (p Product) basis() Money {
	if p.BaseRentalPrice != nil {
		return *p.BaseRentalPrice
	}
	return p.Price
}

// Rent lists the monthly rent of one unit for every offered term, shortest
// term first, or nothing when the product is offered for paying now only.
func (e *Engine) Rent(p Product) []Term {
	basis := p.basis()
	if basis.Net < e.minRentBasis || basis.Net <= 0 {
		return nil
	}
	rates, ok := e.rates[p.Category]
	if !ok {
		rates = e.rates[e.defaultCategory]
	}
	terms := make([]Term, len(e.durations))
	for i, d := range e.durations {
		net := divRound(basis.Net*rates[d], taxScale)
		terms[i] = Term{Duration: d, Monthly: FromNet(basis.Currency, net, basis.TaxRate)}
	}
	return terms
}

// Line is a quantity of a product with the service sublines that come with
// each unit.
type Line struct {
	Main     Product
	Sublines []Product
	Quantity int64
}

// LinePrice is what a line costs. Unit amounts include the sublines unless
// named otherwise; totals are unit amounts times the quantity.
type LinePrice struct {
	PayNow                  Money
	PayNowExcludingSublines Money
	TotalPayNow             Money
	// Rent is empty when the main product or one of its sublines cannot
	// be rented.
	Rent                  []Term
	RentExcludingSublines []Term
	TotalRent             []Term
}

// PriceLine prices a line. All amounts of a line must share a currency.
func (e *Engine) PriceLine(l Line) (LinePrice, error) {
	if l.Quantity < 1 {
		return LinePrice{}, fmt.Errorf("quantity must be at least 1, got %d", l.Quantity)
	}
	main := e.Rent(l.Main)
	out := LinePrice{PayNowExcludingSublines: l.Main.Price, RentExcludingSublines: main}
	payNow := []Money{l.Main.Price}
	rent := main
	for _, s := range l.Sublines {
		payNow = append(payNow, s.Price)
		var err error
		if rent, err = addTerms(rent, e.Rent(s)); err != nil {
			return LinePrice{}, err
		}
	}
	var err error
	if out.PayNow, err = Sum(payNow...); err != nil {
		return LinePrice{}, err
	}
	out.TotalPayNow = out.PayNow.Times(l.Quantity)
	out.Rent = rent
	out.TotalRent = timesTerms(rent, l.Quantity)
	return out, nil
}

// addTerms adds two term lists of the same durations; the result is empty
// when either side has no rent.
func addTerms(a, b []Term) ([]Term, error) {
	if len(a) == 0 || len(b) == 0 {
		return nil, nil
	}
	out := make([]Term, len(a))
	for i := range a {
		m, err := Sum(a[i].Monthly, b[i].Monthly)
		if err != nil {
			return nil, err
		}
		out[i] = Term{Duration: a[i].Duration, Monthly: m}
	}
	return out, nil
}

func timesTerms(terms []Term, quantity int64) []Term {
	if len(terms) == 0 {
		return nil
	}
	out := make([]Term, len(terms))
	for i, t := range terms {
		out[i] = Term{Duration: t.Duration, Monthly: t.Monthly.Times(quantity)}
	}
	return out
}

// Totals are the sums of several lines.
type Totals struct {
	PayNow Money
	// Rent has one entry per offered term, set only when every line can be
	// rented.
	Rent []Term
}

// Total adds up the totals of lines of one currency.
func (e *Engine) Total(lines []LinePrice) (Totals, error) {
	if len(lines) == 0 {
		return Totals{}, errors.New("no lines to add up")
	}
	payNow := make([]Money, len(lines))
	rent := lines[0].TotalRent
	for i, l := range lines {
		payNow[i] = l.TotalPayNow
		if i > 0 {
			var err error
			if rent, err = addTerms(rent, l.TotalRent); err != nil {
				return Totals{}, err
			}
		}
	}
	total, err := Sum(payNow...)
	if err != nil {
		return Totals{}, err
	}
	return Totals{PayNow: total, Rent: rent}, nil
}

// Recommended is the term shown first: the default duration's.
func (e *Engine) Recommended(terms []Term) (Term, bool) {
	for _, t := range terms {
		if t.Duration == e.defaultDuration {
			return t, true
		}
	}
	return Term{}, false
}

// Lowest is the term with the lowest monthly net amount (the longest one,
// as rates never grow with the term); false when there is no term.
func Lowest(terms []Term) (Term, bool) {
	if len(terms) == 0 {
		return Term{}, false
	}
	low := terms[0]
	for _, t := range terms[1:] {
		if t.Monthly.Net < low.Monthly.Net || (t.Monthly.Net == low.Monthly.Net && t.Duration > low.Duration) {
			low = t
		}
	}
	return low, true
}
