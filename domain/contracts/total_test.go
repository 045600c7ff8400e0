package contracts

import (
	"testing"

	"github.com/tenurehq/tenure/domain/pricing"
)

// TestScheduleAddsUpToTheContractsTotal checks that a schedule's total is
// the monthly amount times the months to the cent, net and gross, at odd
// tax rates and with nets whose tax ends in half a cent. Every installment
// has the one monthly amount, rounded once from its net, so adding them up
// cannot drift; taxing the whole term's net at once could (the second
// assertion shows where it would have).
func TestScheduleAddsUpToTheContractsTotal(t *testing.T) {
	drifted := 0
	for _, rate := range []int64{0, 700, 1900, 2100, 2150, 770} {
		// 50 net at 7 %, 19 %, 21 % is 3.5, 9.5, 10.5 cents of tax: all
		// halves; 4990, 2999 and 1 are ordinary and tiny amounts.
		for _, net := range []int64{50, 150, 4990, 2999, 1, 12345, 0} {
			monthly := pricing.FromNet("EUR", net, rate)
			for _, months := range []int{1, 6, 12, 24, 36} {
				s := newSchedule(t, "2026-01-31", months, monthly)
				total, err := s.Total()
				if err != nil {
					t.Fatal(err)
				}
				want := monthly.Times(int64(months))
				if total.Net != want.Net || total.Gross != want.Gross || total.Currency != "EUR" {
					t.Errorf("%d × %d net at %d: total %+v, want %+v", months, net, rate, total, want)
				}
				var gross int64
				for _, inst := range s.Installments {
					gross += inst.Amount.Gross
					if inst.Amount.Gross-inst.Amount.Net != monthly.Gross-monthly.Net {
						t.Errorf("installment %d has tax %d, the monthly amount %d", inst.Number, inst.Amount.Gross-inst.Amount.Net, monthly.Gross-monthly.Net)
					}
				}
				if gross != int64(months)*monthly.Gross {
					t.Errorf("%d × %d net at %d: the installments' gross adds up to %d", months, net, rate, gross)
				}
				if pricing.FromNet("EUR", total.Net, rate).Gross != total.Gross {
					drifted++
				}
			}
		}
	}
	if drifted == 0 {
		t.Error("no case where taxing the term's net at once differs: the cases do not exercise rounding")
	}
}

// TestExtendedScheduleAddsUpToItsParts checks the total of a schedule
// with an extension at another rate: each part's months times its amount.
func TestExtendedScheduleAddsUpToItsParts(t *testing.T) {
	monthly, reduced := pricing.FromNet("EUR", 4999, 700), pricing.FromNet("EUR", 3499, 700)
	s, err := newSchedule(t, "2028-02-29", 36, monthly).Extend(12, reduced)
	if err != nil {
		t.Fatal(err)
	}
	if s, err = s.Extend(1, reduced); err != nil {
		t.Fatal(err)
	}
	total, err := s.Total()
	if err != nil {
		t.Fatal(err)
	}
	if total.Net != 36*4999+13*3499 || total.Gross != 36*monthly.Gross+13*reduced.Gross || total.TaxRate != 700 {
		t.Errorf("total %+v", total)
	}
}
