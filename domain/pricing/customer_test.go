package pricing

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// checkoutEngine is the test engine with the replacement service for
// hardware.
func checkoutEngine(t testing.TB) *Engine {
	t.Helper()
	c := testConfig()
	c.Services = map[string]map[string]ServiceTerms{
		"hardware": {ServiceReplace: {MonthlyNet: 490, DeductibleNet: 4900, AccessoryType: "device"}},
	}
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// checkoutOffer has a rentable hardware line (2 units of 1,000.00 net),
// a rentable software line (500.00) and a pay-now-only accessory (3 units
// of 50.00), all at 19 %, and 10.00 net shipping.
func checkoutOffer(t testing.TB, e *Engine) CustomerRequest {
	t.Helper()
	line := func(id, category string, net, quantity int64) OfferLine {
		price, err := e.PriceLine(Line{Main: Product{Price: FromNet("EUR", net, 1900), Category: category}, Quantity: quantity})
		if err != nil {
			t.Fatal(err)
		}
		return OfferLine{ID: id, Category: category, Quantity: quantity, Price: price}
	}
	return CustomerRequest{
		Currency: "EUR",
		Shipping: eur(1000, 1190, 1900),
		Lines:    []OfferLine{line("a", "hardware", 100000, 2), line("b", "software", 50000, 1), line("c", "hardware", 5000, 3)},
	}
}

func TestCheckoutDefaultsRentTheRecommendedTermAndBuyWhatCannotBeRented(t *testing.T) {
	e := checkoutEngine(t)
	got, err := e.PriceForCustomer(checkoutOffer(t, e))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := got.Lines[0], got.Lines[1], got.Lines[2]
	if a.Selected.ID != "a-rent-36" || b.Selected.ID != "b-rent-36" || c.Selected.ID != "c-pay-now" {
		t.Errorf("default terms: %s %s %s", a.Selected.ID, b.Selected.ID, c.Selected.ID)
	}
	wantTerms := []ContractTerm{
		{ID: "a-pay-now", Type: ContractPayNow, Amount: eur(100000, 119000, 1900)},
		{ID: "a-rent-12", Type: ContractRent, Duration: 12, Amount: eur(9500, 11305, 1900)},
		{ID: "a-rent-24", Type: ContractRent, Duration: 24, Amount: eur(5000, 5950, 1900)},
		{ID: "a-rent-36", Type: ContractRent, Duration: 36, Amount: eur(3500, 4165, 1900)},
	}
	if !reflect.DeepEqual(a.Terms, wantTerms) || a.PayNow != wantTerms[0] {
		t.Errorf("terms of a:\n%+v\nwant %+v", a.Terms, wantTerms)
	}
	if a.Rent == nil || a.Rent.ContractTerm != wantTerms[3] || !reflect.DeepEqual(a.Rent.Durations, []int{12, 24, 36}) {
		t.Errorf("rent option of a: %+v", a.Rent)
	}
	wantService := LineService{ID: "a-service-replace", Type: ServiceReplace, Monthly: eur(490, 583, 1900), Deductible: eur(4900, 5831, 1900), AccessoryType: "device"}
	if len(a.Services) != 1 || a.Services[0] != wantService || len(a.SelectedServices) != 0 {
		t.Errorf("services of a: %+v", a.Services)
	}
	if len(b.Services) != 0 || len(c.Services) != 0 {
		t.Errorf("software and pay-now-only lines offer no services: %+v %+v", b.Services, c.Services)
	}
	if c.Rent != nil || len(c.Terms) != 1 || c.RequiresSerialNumber || !a.RequiresSerialNumber {
		t.Errorf("pay-now-only line: %+v", c)
	}
	o := got.Overview
	want := CustomerOverview{
		RentOnly:                    eur(8900, 10591, 1900),
		TenureLines:                 []TenureLine{{36, eur(8900, 10591, 1900)}},
		TotalRent:                   eur(8900, 10591, 1900),
		Purchase:                    eur(15000, 17850, 1900),
		Shipping:                    eur(1000, 1190, 1900),
		FirstPaymentWithoutShipping: eur(23900, 28441, 1900),
		FirstPayment:                eur(24900, 29631, 1900),
		InsteadOf:                   eur(250000, 297500, 1900),
		ShowInsteadOf:               true,
		Items:                       o.Items,
	}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("overview:\n%+v\nwant\n%+v", o, want)
	}
	if len(o.Items) != 3 || o.Items[1].Identifier != "b" || !reflect.DeepEqual(o.Items[1].Price, checkoutOffer(t, e).Lines[1].Price) {
		t.Errorf("items summaries are the lines' prices: %+v", o.Items)
	}
}

func TestCheckoutWithChoices(t *testing.T) {
	e := checkoutEngine(t)
	cases := []struct {
		name       string
		selections []Selection
		discount   *Discount
		lines      map[string]Money // monthly per rented line
		want       CustomerOverview
	}{
		{
			name:       "rent a over 12 months with the service, buy the rest",
			selections: []Selection{{LineID: "a", TermID: "a-rent-12", ServiceIDs: []string{"a-service-replace"}}, {LineID: "b", TermID: "b-pay-now"}},
			lines:      map[string]Money{"a": eur(19980, 23776, 1900)}, // 2 × 95.00 + 2 × 4.90 (5.83 gross)
			want: CustomerOverview{
				RentOnly:                    eur(19000, 22610, 1900),
				TenureLines:                 []TenureLine{{12, eur(19980, 23776, 1900)}},
				TotalRent:                   eur(19980, 23776, 1900),
				Purchase:                    eur(65000, 77350, 1900),
				FirstPaymentWithoutShipping: eur(84980, 101126, 1900),
				FirstPayment:                eur(85980, 102316, 1900),
				InsteadOf:                   eur(200000, 238000, 1900),
				ShowInsteadOf:               true,
			},
		},
		{
			name:       "two terms and 10 % off the rent",
			selections: []Selection{{LineID: "a", TermID: "a-rent-24"}},
			discount:   &Discount{ID: "spring", BasisPoints: 1000},
			// a: 100.00 (119.00) less 10.00 (11.90); b: 19.00 (22.61) less 1.90 (2.26)
			lines: map[string]Money{"a": eur(9000, 10710, 1900), "b": eur(1710, 2035, 1900)},
			want: CustomerOverview{
				RentOnly:                    eur(10710, 12745, 1900),
				TenureLines:                 []TenureLine{{24, eur(9000, 10710, 1900)}, {36, eur(1710, 2035, 1900)}},
				TotalRent:                   eur(10710, 12745, 1900),
				Purchase:                    eur(15000, 17850, 1900),
				FirstPaymentWithoutShipping: eur(25710, 30595, 1900),
				FirstPayment:                eur(26710, 31785, 1900),
				InsteadOf:                   eur(250000, 297500, 1900),
				ShowInsteadOf:               true,
				Discount:                    &AppliedDiscount{ID: "spring", Monthly: eur(1190, 1416, 1900)},
			},
		},
		{
			name:       "10.00 off a month, shared by the rents",
			selections: []Selection{{LineID: "a", TermID: "a-rent-24"}},
			discount:   &Discount{ID: "tenner", FixedNet: 1000, Currency: "EUR"},
			// 1,000 × 10,000 / 11,900 = 840.34 and 1,000 × 1,900 / 11,900 =
			// 159.66: the larger remainder gets the last cent (840 + 160).
			lines: map[string]Money{"a": eur(9160, 10900, 1900), "b": eur(1740, 2071, 1900)},
			want: CustomerOverview{
				RentOnly:                    eur(10900, 12971, 1900),
				TenureLines:                 []TenureLine{{24, eur(9160, 10900, 1900)}, {36, eur(1740, 2071, 1900)}},
				TotalRent:                   eur(10900, 12971, 1900),
				Purchase:                    eur(15000, 17850, 1900),
				FirstPaymentWithoutShipping: eur(25900, 30821, 1900),
				FirstPayment:                eur(26900, 32011, 1900),
				InsteadOf:                   eur(250000, 297500, 1900),
				ShowInsteadOf:               true,
				Discount:                    &AppliedDiscount{ID: "tenner", Monthly: eur(1000, 1190, 1900)},
			},
		},
		{
			name:       "a fixed discount above the rent leaves the services",
			selections: []Selection{{LineID: "a", ServiceIDs: []string{"a-service-replace"}}, {LineID: "b", TermID: "b-pay-now"}},
			discount:   &Discount{ID: "all", FixedNet: 999999, Currency: "EUR"},
			lines:      map[string]Money{"a": eur(980, 1166, 1900)},
			want: CustomerOverview{
				RentOnly:                    Money{Currency: "EUR"},
				TenureLines:                 []TenureLine{{36, eur(980, 1166, 1900)}},
				TotalRent:                   eur(980, 1166, 1900),
				Purchase:                    eur(65000, 77350, 1900),
				FirstPaymentWithoutShipping: eur(65980, 78516, 1900),
				FirstPayment:                eur(66980, 79706, 1900),
				InsteadOf:                   eur(200000, 238000, 1900),
				ShowInsteadOf:               true,
				Discount:                    &AppliedDiscount{ID: "all", Monthly: eur(7000, 8330, 1900)},
			},
		},
		{
			name:       "buy everything",
			selections: []Selection{{LineID: "a", TermID: "a-pay-now"}, {LineID: "b", TermID: "b-pay-now"}},
			lines:      map[string]Money{},
			want: CustomerOverview{
				RentOnly:                    Money{Currency: "EUR"},
				TotalRent:                   Money{Currency: "EUR"},
				Purchase:                    eur(265000, 315350, 1900),
				FirstPaymentWithoutShipping: eur(265000, 315350, 1900),
				FirstPayment:                eur(266000, 316540, 1900),
				InsteadOf:                   Money{Currency: "EUR"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := checkoutOffer(t, e)
			r.Selections, r.Discount = tc.selections, tc.discount
			got, err := e.PriceForCustomer(r)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range got.Lines {
				want, rented := tc.lines[l.LineID]
				if rented != (l.Selected.Type == ContractRent) || (rented && l.Monthly != want) {
					t.Errorf("line %s: %s monthly %+v, want %+v", l.LineID, l.Selected.ID, l.Monthly, want)
				}
				if applied := rented && tc.discount != nil; (l.DiscountID != "") != applied || (applied && l.DiscountID != tc.discount.ID) {
					t.Errorf("line %s: discount %q", l.LineID, l.DiscountID)
				}
			}
			tc.want.Shipping, tc.want.Items = r.Shipping, got.Overview.Items
			if !reflect.DeepEqual(got.Overview, tc.want) {
				t.Errorf("overview:\n%+v\nwant\n%+v", got.Overview, tc.want)
			}
		})
	}
}

func TestCheckoutRefusesAChoiceTheOfferDoesNotAllow(t *testing.T) {
	e := checkoutEngine(t)
	cases := []struct {
		name       string
		selections []Selection
		want       []string
	}{
		{"unknown line", []Selection{{LineID: "z", TermID: "z-pay-now"}}, []string{`line "z": is not a line of this offer`}},
		{"line twice", []Selection{{LineID: "a"}, {LineID: "a"}}, []string{`line "a": is chosen more than once`}},
		{"term not offered", []Selection{{LineID: "c", TermID: "c-rent-36"}},
			[]string{`line "c": contract terms "c-rent-36" are not offered for this line; choose one of c-pay-now`}},
		{"another line's term", []Selection{{LineID: "a", TermID: "b-rent-12"}},
			[]string{`line "a": contract terms "b-rent-12" are not offered for this line; choose one of a-pay-now, a-rent-12, a-rent-24, a-rent-36`}},
		{"no services on the line", []Selection{{LineID: "b", ServiceIDs: []string{"b-service-replace"}}},
			[]string{`line "b": service "b-service-replace" is not available: this line offers no services`}},
		{"another line's service", []Selection{{LineID: "a", ServiceIDs: []string{"c-service-replace"}}},
			[]string{`line "a": service "c-service-replace" is not available for this line; choose among a-service-replace`}},
		{"service twice", []Selection{{LineID: "a", ServiceIDs: []string{"a-service-replace", "a-service-replace"}}},
			[]string{`line "a": service "a-service-replace" is selected twice`}},
		{"service without rent", []Selection{{LineID: "a", TermID: "a-pay-now", ServiceIDs: []string{"a-service-replace"}}},
			[]string{`line "a": services come with renting only: choose a rent term or no services`}},
		{"every problem at once", []Selection{{LineID: "z"}, {LineID: "a", TermID: "a-rent-6"}, {LineID: "b", ServiceIDs: []string{"x"}}},
			[]string{`line "z": is not a line`, `line "a": contract terms "a-rent-6"`, `line "b": service "x"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := checkoutOffer(t, e)
			r.Selections = tc.selections
			_, err := e.PriceForCustomer(r)
			var refused *RefusedSelection
			if !errors.As(err, &refused) || len(refused.Problems) != len(tc.want) {
				t.Fatalf("want %d problems refused, got %v", len(tc.want), err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
		})
	}
}

func TestCheckoutDiscountThatCannotApply(t *testing.T) {
	e := checkoutEngine(t)
	bought := []Selection{{LineID: "a", TermID: "a-pay-now"}, {LineID: "b", TermID: "b-pay-now"}}
	cases := []struct {
		name       string
		selections []Selection
		discount   Discount
		want       string
	}{
		{"nothing rented", bought, Discount{BasisPoints: 500}, "no line is rented"},
		{"another currency", nil, Discount{FixedNet: 500, Currency: "CHF"}, "the discount is in CHF, the offer in EUR"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := checkoutOffer(t, e)
			r.Selections, r.Discount = tc.selections, &tc.discount
			_, err := e.PriceForCustomer(r)
			if !errors.Is(err, ErrDiscountNotApplicable) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want not applicable (%s), got %v", tc.want, err)
			}
		})
	}
}

func TestCheckoutRefusesAnOfferItDidNotPrice(t *testing.T) {
	e := checkoutEngine(t)
	cases := []struct {
		name string
		tune func(*CustomerRequest)
		want string
	}{
		{"no currency", func(r *CustomerRequest) { r.Currency = "" }, "no currency"},
		{"no lines", func(r *CustomerRequest) { r.Lines = nil }, "no lines"},
		{"repeated line", func(r *CustomerRequest) { r.Lines[1].ID = "a" }, `line id "a" is empty or repeated`},
		{"no quantity", func(r *CustomerRequest) { r.Lines[0].Quantity = 0 }, "quantity 0"},
		{"other currency", func(r *CustomerRequest) { r.Shipping.Currency = "USD" }, "not in EUR"},
		{"negative amount", func(r *CustomerRequest) { r.Lines[2].Price.TotalPayNow.Net = -1 }, "negative"},
		{"rent without totals", func(r *CustomerRequest) { r.Lines[0].Price.TotalRent = nil }, "3 rent terms and 0 rent totals"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := checkoutOffer(t, e)
			tc.tune(&r)
			if _, err := e.PriceForCustomer(r); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("want %q, got %v", tc.want, err)
			}
		})
	}
}

func TestCheckoutWithoutShippingOrServicesConfigured(t *testing.T) {
	e := testEngine(t)
	r := checkoutOffer(t, e)
	r.Shipping = Money{}
	got, err := e.PriceForCustomer(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Lines[0].Services) != 0 {
		t.Errorf("no services without configuration: %+v", got.Lines[0].Services)
	}
	if got.Overview.Shipping != (Money{Currency: "EUR"}) || got.Overview.FirstPayment != got.Overview.FirstPaymentWithoutShipping {
		t.Errorf("no shipping: %+v", got.Overview)
	}
}
