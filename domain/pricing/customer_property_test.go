package pricing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// randomCheckout draws an offer priced by the engine, a choice among what
// its lines offer and, sometimes, a discount.
func randomCheckout(t *testing.T, e *Engine, r *rand.Rand) CustomerRequest {
	req := CustomerRequest{Currency: "EUR"}
	if r.IntN(2) == 0 {
		req.Shipping = FromNet("EUR", r.Int64N(100_000), r.Int64N(2500))
	}
	for i := range r.IntN(5) + 1 {
		main := randomProduct(r)
		if r.IntN(4) == 0 { // pay-now only
			main = Product{Price: FromNet("EUR", r.Int64N(10_000), r.Int64N(2500)), Category: main.Category}
		}
		subs := make([]Product, r.IntN(3))
		for j := range subs {
			subs[j] = randomProduct(r)
		}
		quantity := r.Int64N(20) + 1
		price, err := e.PriceLine(Line{Main: main, Sublines: subs, Quantity: quantity})
		if err != nil {
			t.Fatal(err)
		}
		req.Lines = append(req.Lines, OfferLine{ID: fmt.Sprintf("line-%d", i), Category: main.Category, Quantity: quantity, Price: price})
	}
	for _, l := range req.Lines {
		if r.IntN(3) == 0 {
			continue // the default
		}
		o := e.options(req.Currency, l)
		term := o.terms[r.IntN(len(o.terms))]
		s := Selection{LineID: l.ID, TermID: term.ID}
		if term.Type == ContractRent {
			for _, svc := range o.services {
				if r.IntN(2) == 0 {
					s.ServiceIDs = append(s.ServiceIDs, svc.ID)
				}
			}
		}
		req.Selections = append(req.Selections, s)
	}
	switch r.IntN(3) {
	case 0:
		req.Discount = &Discount{ID: "pct", BasisPoints: r.Int64N(taxScale) + 1}
	case 1:
		req.Discount = &Discount{ID: "fixed", FixedNet: r.Int64N(maxFixedDiscount) + 1, Currency: "EUR"}
	}
	return req
}

// checkCheckout asserts what holds for every priced offer: totals are the
// sums of their parts, nothing is negative or has gross below net, and
// the choice round-trips.
func checkCheckout(t *testing.T, e *Engine, req CustomerRequest, got CustomerPrices) {
	t.Helper()
	add := func(ms ...Money) Money {
		out := Money{}
		for _, m := range ms {
			out.Net += m.Net
			out.Gross += m.Gross
		}
		return out
	}
	same := func(what string, a, b Money) {
		if a.Net != b.Net || a.Gross != b.Gross {
			t.Fatalf("%s: %+v is not %+v", what, a, b)
		}
	}
	sane := func(what string, m Money) {
		if m.Net < 0 || m.Gross < m.Net || m.Currency != "EUR" {
			t.Fatalf("%s: %+v is negative, has gross below net or another currency", what, m)
		}
	}
	o := got.Overview
	var once, monthly, rent, discount, services, insteadOf []Money
	for i, l := range got.Lines {
		for _, m := range []Money{l.Once, l.MonthlyRent, l.MonthlyDiscount, l.MonthlyServices, l.Monthly} {
			sane(l.LineID, m)
		}
		same(l.LineID+" monthly", l.Monthly, add(l.MonthlyRent, l.MonthlyServices).Minus(l.MonthlyDiscount))
		once = append(once, l.Once)
		if l.Selected.Type == ContractRent {
			monthly, rent = append(monthly, l.Monthly), append(rent, l.MonthlyRent)
			discount, services = append(discount, l.MonthlyDiscount), append(services, l.MonthlyServices)
			insteadOf = append(insteadOf, req.Lines[i].Price.TotalPayNow)
		} else if add(l.MonthlyRent, l.MonthlyDiscount, l.MonthlyServices, l.Monthly) != (Money{}) || len(l.SelectedServices) > 0 {
			t.Fatalf("a bought line costs nothing monthly: %+v", l)
		}
	}
	for name, m := range map[string]Money{"rent only": o.RentOnly, "total rent": o.TotalRent, "purchase": o.Purchase,
		"first payment": o.FirstPayment, "first payment without shipping": o.FirstPaymentWithoutShipping, "instead of": o.InsteadOf} {
		sane(name, m)
	}
	var tenure []Money
	for _, tl := range o.TenureLines {
		sane("tenure line", tl.Amount)
		tenure = append(tenure, tl.Amount)
	}
	same("total rent = its lines", o.TotalRent, add(monthly...))
	same("total rent = tenure lines", o.TotalRent, add(tenure...))
	same("rent only + services = total rent", add(o.RentOnly, add(services...)), o.TotalRent)
	same("rent only + discount = rent", add(o.RentOnly, add(discount...)), add(rent...))
	same("purchase = bought lines", o.Purchase, add(once...))
	same("first payment without shipping", o.FirstPaymentWithoutShipping, add(o.Purchase, o.TotalRent))
	same("first payment", o.FirstPayment, add(o.FirstPaymentWithoutShipping, req.Shipping))
	same("instead of = rented lines bought", o.InsteadOf, add(insteadOf...))
	if o.ShowInsteadOf != (len(monthly) > 0) {
		t.Fatalf("instead of shown with %d rented lines", len(monthly))
	}
	if o.Discount != nil {
		same("discount", o.Discount.Monthly, add(discount...))
		if d := req.Discount; d.FixedNet != 0 && o.Discount.Monthly.Net != min(d.FixedNet, add(rent...).Net) {
			t.Fatalf("fixed discount %d took %d off rents of %d", d.FixedNet, o.Discount.Monthly.Net, add(rent...).Net)
		}
	}

	again := req
	again.Selections = nil
	for _, l := range got.Lines {
		again.Selections = append(again.Selections, Selection{LineID: l.LineID, TermID: l.Selected.ID, ServiceIDs: l.SelectedServiceIDs()})
	}
	repriced, err := e.PriceForCustomer(again)
	if err != nil || !reflect.DeepEqual(repriced, got) {
		t.Fatalf("choosing what was chosen changes the checkout (%v):\n%+v\n%+v", err, repriced, got)
	}
}

// FuzzCheckout prices random offers and choices drawn from a seed.
func FuzzCheckout(f *testing.F) {
	for seed := range uint64(500) {
		f.Add(seed)
	}
	e := checkoutEngine(f)
	f.Fuzz(func(t *testing.T, seed uint64) {
		req := randomCheckout(t, e, rand.New(rand.NewPCG(seed, 14)))
		got, err := e.PriceForCustomer(req)
		if errors.Is(err, ErrDiscountNotApplicable) {
			req.Discount = nil
			got, err = e.PriceForCustomer(req)
		}
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		checkCheckout(t, e, req, got)
	})
}
