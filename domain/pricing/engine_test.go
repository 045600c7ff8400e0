package pricing

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func testConfig() Config {
	return Config{
		Durations:       []int{12, 24, 36},
		DefaultDuration: 36,
		MinRentBasis:    10000,
		Rates: map[string]map[int]int64{
			"hardware": {12: 950, 24: 500, 36: 350},
			"software": {12: 1000, 24: 540, 36: 380},
		},
		DefaultCategory: "hardware",
	}
}

func testEngine(t testing.TB) *Engine {
	t.Helper()
	e, err := New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func eur(net, gross, tax int64) Money {
	return Money{Currency: "EUR", Net: net, Gross: gross, TaxRate: tax}
}

func TestDivRoundIsHalfAwayFromZero(t *testing.T) {
	cases := []struct{ num, den, want int64 }{
		{5, 10, 1}, {4, 10, 0}, {15, 10, 2}, {25, 10, 3}, {-5, 10, -1}, {-4, 10, 0}, {-25, 10, -3},
		{1, 3, 0}, {2, 3, 1}, {3, 2, 2}, {0, 7, 0},
	}
	for _, c := range cases {
		if got := divRound(c.num, c.den); got != c.want {
			t.Errorf("divRound(%d, %d) = %d, want %d", c.num, c.den, got, c.want)
		}
	}
}

func TestRentFromNetPrice(t *testing.T) {
	e := testEngine(t)
	// 2,099.16 net at 19 %: 12 months at 9.50 %, 24 at 5.00 %, 36 at 3.50 %.
	terms := e.Rent(Product{Price: eur(209916, 249800, 1900), Category: "hardware"})
	want := []Term{
		{12, eur(19942, 23731, 1900)}, // 209916 × 0.095 = 19942.02; × 1.19 = 23730.98
		{24, eur(10496, 12490, 1900)}, // 10495.8 → 10496; 12490.24 → 12490
		{36, eur(7347, 8743, 1900)},   // 7347.06 → 7347; 8742.93 → 8743
	}
	if !reflect.DeepEqual(terms, want) {
		t.Errorf("got %+v\nwant %+v", terms, want)
	}
}

func TestRentPrefersTheBaseRentalPrice(t *testing.T) {
	e := testEngine(t)
	base := eur(100000, 107000, 700)
	terms := e.Rent(Product{Price: eur(500000, 595000, 1900), BaseRentalPrice: &base, Category: "software"})
	if len(terms) != 3 || terms[0].Monthly != eur(10000, 10700, 700) || terms[2].Monthly != eur(3800, 4066, 700) {
		t.Errorf("rent is computed from the base rental price with its tax rate: %+v", terms)
	}
}

func TestUnknownCategoryUsesTheDefaultRates(t *testing.T) {
	e := testEngine(t)
	p := Product{Price: eur(100000, 119000, 1900), Category: "hardware"}
	q := p
	q.Category = "furniture"
	if !reflect.DeepEqual(e.Rent(p), e.Rent(q)) {
		t.Error("an unknown category is priced like the default category")
	}
}

func TestBelowTheMinimumBasisIsPayNowOnly(t *testing.T) {
	e := testEngine(t)
	if terms := e.Rent(Product{Price: eur(9999, 11899, 1900)}); terms != nil {
		t.Errorf("a basis below the minimum has no rent: %+v", terms)
	}
	if terms := e.Rent(Product{Price: eur(10000, 11900, 1900)}); len(terms) != 3 {
		t.Errorf("a basis at the minimum is rented: %+v", terms)
	}
	base := eur(5000, 5950, 1900)
	if terms := e.Rent(Product{Price: eur(100000, 119000, 1900), BaseRentalPrice: &base}); terms != nil {
		t.Errorf("the base rental price is the basis, also for the minimum: %+v", terms)
	}
}

func TestPriceLineWithSublinesAndQuantity(t *testing.T) {
	e := testEngine(t)
	main := Product{Price: eur(100000, 119000, 1900), Category: "hardware"}
	service := Product{Price: eur(20000, 23800, 1900), Category: "software"}
	got, err := e.PriceLine(Line{Main: main, Sublines: []Product{service}, Quantity: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got.PayNow != eur(120000, 142800, 1900) || got.PayNowExcludingSublines != main.Price || got.TotalPayNow != eur(360000, 428400, 1900) {
		t.Errorf("pay now: %+v / %+v / %+v", got.PayNow, got.PayNowExcludingSublines, got.TotalPayNow)
	}
	// 36 months: main 3500 net (4165 gross), service 760 net (904 gross).
	if r := got.Rent[2]; r.Duration != 36 || r.Monthly != eur(4260, 5069, 1900) {
		t.Errorf("rent including sublines: %+v", r)
	}
	if r := got.RentExcludingSublines[2]; r.Monthly != eur(3500, 4165, 1900) {
		t.Errorf("rent excluding sublines: %+v", r)
	}
	if r := got.TotalRent[2]; r.Monthly != eur(12780, 15207, 1900) {
		t.Errorf("total rent: %+v", r)
	}
}

func TestASublineThatCannotBeRentedMakesTheLinePayNowOnly(t *testing.T) {
	e := testEngine(t)
	got, err := e.PriceLine(Line{
		Main:     Product{Price: eur(100000, 119000, 1900)},
		Sublines: []Product{{Price: eur(500, 595, 1900)}},
		Quantity: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rent) != 0 || len(got.TotalRent) != 0 || len(got.RentExcludingSublines) != 3 {
		t.Errorf("rent %+v, excluding sublines %+v", got.Rent, got.RentExcludingSublines)
	}
	if got.PayNow.Net != 100500 {
		t.Errorf("pay now includes the subline: %+v", got.PayNow)
	}
}

func TestMixedCurrenciesAreRefused(t *testing.T) {
	e := testEngine(t)
	_, err := e.PriceLine(Line{
		Main:     Product{Price: eur(100000, 119000, 1900)},
		Sublines: []Product{{Price: Money{Currency: "GBP", Net: 100, Gross: 120, TaxRate: 2000}}},
		Quantity: 1,
	})
	if err == nil || !strings.Contains(err.Error(), "different currencies") {
		t.Errorf("got %v", err)
	}
}

func TestSumStatesTheEffectiveTaxRateOfMixedRates(t *testing.T) {
	got, err := Sum(eur(10000, 11900, 1900), eur(10000, 10700, 700))
	if err != nil {
		t.Fatal(err)
	}
	if got != eur(20000, 22600, 1300) {
		t.Errorf("got %+v", got)
	}
}

func TestTotalOfLines(t *testing.T) {
	e := testEngine(t)
	a, _ := e.PriceLine(Line{Main: Product{Price: eur(100000, 119000, 1900)}, Quantity: 2})
	b, _ := e.PriceLine(Line{Main: Product{Price: eur(50000, 59500, 1900)}, Quantity: 1})
	c, _ := e.PriceLine(Line{Main: Product{Price: eur(1000, 1190, 1900)}, Quantity: 1})
	got, err := e.Total([]LinePrice{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if got.PayNow != eur(250000, 297500, 1900) || len(got.Rent) != 3 || got.Rent[2].Monthly.Net != 2*3500+1750 {
		t.Errorf("got %+v", got)
	}
	got, _ = e.Total([]LinePrice{a, c})
	if got.Rent != nil || got.PayNow.Net != 201000 {
		t.Errorf("a pay-now-only line leaves the total without rent: %+v", got)
	}
}

func TestRecommendedAndLowest(t *testing.T) {
	e := testEngine(t)
	terms := e.Rent(Product{Price: eur(100000, 119000, 1900)})
	rec, ok := e.Recommended(terms)
	low, ok2 := Lowest(terms)
	if !ok || !ok2 || rec.Duration != 36 || low.Duration != 36 {
		t.Errorf("recommended %+v, lowest %+v", rec, low)
	}
	if _, ok := e.Recommended(nil); ok {
		t.Error("no recommendation without rent")
	}
}

func TestConfigProblems(t *testing.T) {
	cases := []struct {
		name string
		tune func(*Config)
		key  string
		want string
	}{
		{"48 months", func(c *Config) { c.Durations = []int{12, 24, 36, 48} }, "durations", "RentalTermMonths"},
		{"no durations", func(c *Config) { c.Durations = nil }, "durations", "at least one"},
		{"duplicate", func(c *Config) { c.Durations = []int{12, 12, 36} }, "durations", "twice"},
		{"default not offered", func(c *Config) { c.DefaultDuration = 6 }, "default_duration", "one of the offered"},
		{"negative minimum", func(c *Config) { c.MinRentBasis = -1 }, "min_rent_basis", "negative"},
		{"missing rate", func(c *Config) { c.Durations = []int{6, 12, 24, 36} }, "rates.hardware.6", "missing"},
		{"rate grows", func(c *Config) { c.Rates["software"][36] = 600 }, "rates.software.36", "never costs more"},
		{"zero rate", func(c *Config) { c.Rates["software"][12] = 0 }, "rates.software.12", "between 1 and"},
		{"unknown default category", func(c *Config) { c.DefaultCategory = "furniture" }, "default_category", "furniture"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testConfig()
			tc.tune(&c)
			ps := c.Problems()
			found := false
			for _, p := range ps {
				found = found || (p.Key == tc.key && strings.Contains(p.Message, tc.want))
			}
			if !found {
				t.Errorf("no problem %s ~ %q in %+v", tc.key, tc.want, ps)
			}
			if _, err := New(c); err == nil {
				t.Error("New accepts the configuration")
			}
		})
	}
	if ps := testConfig().Problems(); len(ps) != 0 {
		t.Errorf("the test configuration is valid: %+v", ps)
	}
}

// randomProduct draws a product from the ranges the API accepts.
func randomProduct(r *rand.Rand) Product {
	net := r.Int64N(100_000_000) + 1
	tax := r.Int64N(2500)
	p := Product{Price: FromNet("EUR", net, tax), Category: []string{"hardware", "software", "other"}[r.IntN(3)]}
	if r.IntN(3) == 0 {
		base := FromNet("EUR", r.Int64N(net)+1, tax)
		p.BaseRentalPrice = &base
	}
	return p
}

func TestPropertyLongerTermsNeverCostMorePerMonth(t *testing.T) {
	e := testEngine(t)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		p := randomProduct(r)
		terms := e.Rent(p)
		for i := 1; i < len(terms); i++ {
			if terms[i].Monthly.Net > terms[i-1].Monthly.Net || terms[i].Monthly.Gross > terms[i-1].Monthly.Gross {
				t.Fatalf("%+v: %d months cost more than %d: %+v", p, terms[i].Duration, terms[i-1].Duration, terms)
			}
		}
	}
}

func TestPropertyGrossIsNeverBelowNet(t *testing.T) {
	e := testEngine(t)
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		p := randomProduct(r)
		line, err := e.PriceLine(Line{Main: p, Sublines: []Product{randomProduct(r)}, Quantity: r.Int64N(50) + 1})
		if err != nil {
			t.Fatal(err)
		}
		all := append(append(append([]Term{}, line.Rent...), line.TotalRent...), line.RentExcludingSublines...)
		for _, term := range all {
			if term.Monthly.Gross < term.Monthly.Net {
				t.Fatalf("%+v: gross below net in %+v", p, term)
			}
		}
		if line.TotalPayNow.Gross < line.TotalPayNow.Net {
			t.Fatalf("pay now gross below net: %+v", line.TotalPayNow)
		}
	}
}

func TestPropertyTotalsEqualTheSumOfTheirParts(t *testing.T) {
	e := testEngine(t)
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		main := randomProduct(r)
		subs := make([]Product, r.IntN(4))
		for i := range subs {
			subs[i] = randomProduct(r)
		}
		q := r.Int64N(20) + 1
		line, err := e.PriceLine(Line{Main: main, Sublines: subs, Quantity: q})
		if err != nil {
			t.Fatal(err)
		}
		payNet, payGross := main.Price.Net, main.Price.Gross
		for _, s := range subs {
			payNet += s.Price.Net
			payGross += s.Price.Gross
		}
		if line.PayNow.Net != payNet || line.PayNow.Gross != payGross || line.TotalPayNow.Net != q*payNet || line.TotalPayNow.Gross != q*payGross {
			t.Fatalf("pay now %+v / %+v is not the sum of its parts", line.PayNow, line.TotalPayNow)
		}
		for i, term := range line.Rent {
			net, gross := line.RentExcludingSublines[i].Monthly.Net, line.RentExcludingSublines[i].Monthly.Gross
			for _, s := range subs {
				net += e.Rent(s)[i].Monthly.Net
				gross += e.Rent(s)[i].Monthly.Gross
			}
			if term.Monthly.Net != net || term.Monthly.Gross != gross {
				t.Fatalf("rent %+v is not main + sublines (%d/%d)", term, net, gross)
			}
			if tot := line.TotalRent[i].Monthly; tot.Net != q*net || tot.Gross != q*gross {
				t.Fatalf("total rent %+v is not %d × %d/%d", tot, q, net, gross)
			}
		}
		other, _ := e.PriceLine(Line{Main: randomProduct(r), Quantity: 1})
		totals, err := e.Total([]LinePrice{line, other})
		if err != nil {
			t.Fatal(err)
		}
		if totals.PayNow.Net != line.TotalPayNow.Net+other.TotalPayNow.Net || totals.PayNow.Gross != line.TotalPayNow.Gross+other.TotalPayNow.Gross {
			t.Fatalf("basket pay now %+v is not the sum of its lines", totals.PayNow)
		}
		for i, term := range totals.Rent {
			if term.Monthly.Net != line.TotalRent[i].Monthly.Net+other.TotalRent[i].Monthly.Net {
				t.Fatalf("basket rent %+v is not the sum of its lines", term)
			}
		}
	}
}

func TestPropertyDeterministic(t *testing.T) {
	e := testEngine(t)
	again := testEngine(t)
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		l := Line{Main: randomProduct(r), Sublines: []Product{randomProduct(r)}, Quantity: r.Int64N(9) + 1}
		a, errA := e.PriceLine(l)
		b, errB := again.PriceLine(l)
		c, errC := e.PriceLine(l)
		if errA != nil || errB != nil || errC != nil || !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
			t.Fatalf("pricing %+v twice gave different results", l)
		}
	}
}

func TestMinusAndSumOf(t *testing.T) {
	if got := eur(1000, 1190, 1900).Minus(eur(100, 119, 1900)); got != eur(900, 1071, 1900) {
		t.Errorf("same rate: %+v", got)
	}
	if got := eur(1000, 1190, 1900).Minus(Money{Currency: "EUR"}); got != eur(1000, 1190, 1900) {
		t.Errorf("nothing taken off keeps the rate: %+v", got)
	}
	if got := eur(1000, 1190, 1900).Minus(eur(500, 535, 700)); got != eur(500, 655, 3100) {
		t.Errorf("mixed rates state the effective rate: %+v", got)
	}
	if got, err := SumOf("EUR"); err != nil || got != (Money{Currency: "EUR"}) {
		t.Errorf("empty sum: %+v %v", got, err)
	}
	if got, err := SumOf("EUR", Money{}, eur(100, 119, 1900), eur(0, 0, 0)); err != nil || got != eur(100, 119, 1900) {
		t.Errorf("zero parts count for nothing: %+v %v", got, err)
	}
	if _, err := SumOf("EUR", Money{Currency: "USD", Net: 1, Gross: 1}); err == nil {
		t.Error("another currency is refused")
	}
}
