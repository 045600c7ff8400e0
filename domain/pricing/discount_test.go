package pricing

import (
	"reflect"
	"strings"
	"testing"
)

func TestDiscountValidate(t *testing.T) {
	cases := []struct {
		name string
		d    Discount
		want string
	}{
		{"percentage", Discount{BasisPoints: 1500}, ""},
		{"whole rent", Discount{BasisPoints: 10000}, ""},
		{"fixed", Discount{FixedNet: 2500, Currency: "EUR"}, ""},
		{"nothing", Discount{}, "needs a percentage or a fixed amount"},
		{"both", Discount{BasisPoints: 100, FixedNet: 100, Currency: "EUR"}, "not both"},
		{"above 100 %", Discount{BasisPoints: 10001}, "between 1 and 10000 basis points"},
		{"negative percentage", Discount{BasisPoints: -5}, "between 1 and 10000 basis points"},
		{"negative amount", Discount{FixedNet: -5, Currency: "EUR"}, "between 1 and 100000000 minor units"},
		{"no currency", Discount{FixedNet: 5}, "needs its currency"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.d.Validate()
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("want %q, got %v", tc.want, err)
			}
		})
	}
}

func TestDiscountSplit(t *testing.T) {
	rents := []Money{eur(3333, 3966, 1900), eur(3333, 3966, 1900), eur(3334, 3967, 1900)}
	cases := []struct {
		name string
		d    Discount
		want []Money
	}{
		// 333.3 and 333.4 net, 396.6 and 396.7 gross: half away from zero.
		{"10 %", Discount{BasisPoints: 1000}, []Money{eur(333, 397, 1900), eur(333, 397, 1900), eur(333, 397, 1900)}},
		{"100 %", Discount{BasisPoints: 10000}, rents},
		// 100 × 3333 / 10000 = 33.33 twice and 33.34: 99 shared by floor, the
		// last cent to the largest remainder (the third line).
		{"1.00 fixed", Discount{FixedNet: 100, Currency: "EUR"}, []Money{eur(33, 39, 1900), eur(33, 39, 1900), eur(34, 40, 1900)}},
		// Remainders 6666, 6666 and 6668 of 10000: the third line, then
		// the first (the earlier of equal remainders).
		{"0.02 fixed", Discount{FixedNet: 2, Currency: "EUR"}, []Money{eur(1, 1, 1900), eur(0, 0, 1900), eur(1, 1, 1900)}},
		{"capped at the rent", Discount{FixedNet: 50000, Currency: "EUR"}, rents},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.d.split("EUR", rents)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestFixedDiscountOfHugeRentsDoesNotOverflow(t *testing.T) {
	rents := []Money{eur(1<<62, 1<<62, 0), eur(1<<40, 1<<40, 0)}
	got, err := Discount{FixedNet: maxFixedDiscount, Currency: "EUR"}.split("EUR", rents)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Net+got[1].Net != maxFixedDiscount || got[0].Net < got[1].Net || got[1].Net < 0 {
		t.Errorf("shares %+v", got)
	}
}
