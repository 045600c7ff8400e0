package contracts

import (
	"errors"
	"math/big"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Quote is the price of ending a contract early, made on a day and valid
// for a while.
//
// It settles the remaining installments: those still scheduled and due
// after the quote date. An installment due on or before the quote date is
// owed whatever its status (due, failed, or scheduled and not yet marked
// due by a worker catching up); the quote leaves it owed and does not
// include it. Paid and waived installments are not owed.
//
// Each remaining installment j, of net amount A_j and due on D_j, is worth
// at the quote date Q
//
//	A_j / (1 + y/12)^n_j    with n_j = Q.MonthsUntil(D_j)
//
// where y is the yearly rate (Policy.TerminationYearlyRateBasisPoints /
// 10000) compounded monthly and n_j the whole months from Q to D_j: a part
// of a month is not discounted, so the first remaining installment, due
// within a month, counts in full. The values are added exactly (rational
// arithmetic) and rounded once, half away from zero, to DiscountedNet;
// the fee is added and the total taxed at the contract's rate, rounded once
// (pricing.FromNet).
//
// The quote can be accepted from Q until ValidUntil, both included: Q plus
// Policy.QuoteValidityDays, but no later than the day before the first
// remaining installment falls due, since from that day on the quote would
// settle an installment that is owed.
type Quote struct {
	Date       civil.Date `json:"date"`
	ValidUntil civil.Date `json:"valid_until"`
	// Installments are the remaining installments the quote settles, in
	// order.
	Installments []QuotedInstallment `json:"installments"`
	// RemainingNet is their net sum, undiscounted.
	RemainingNet int64 `json:"remaining_net"`
	// DiscountedNet is their value at the quote date, rounded once.
	DiscountedNet int64 `json:"discounted_net"`
	// FeeNet is Policy.TerminationFeeNet.
	FeeNet int64 `json:"fee_net"`
	// Total is the final charge: DiscountedNet + FeeNet, taxed at the
	// contract's rate.
	Total pricing.Money `json:"total"`
}

// QuotedInstallment is an installment a quote settles and how many whole
// months it is discounted by.
type QuotedInstallment struct {
	Number  int        `json:"number"`
	DueDate civil.Date `json:"due_date"`
	Net     int64      `json:"net"`
	Months  int        `json:"months"`
}

// TerminationQuote prices ending a contract with the schedule early, on a
// day: see Quote. A contract whose remaining installments are none (its
// last month runs, or it goes on month by month) is quoted the fee alone.
func (p Policy) TerminationQuote(s Schedule, on civil.Date) (Quote, error) {
	if err := p.check(); err != nil {
		return Quote{}, err
	}
	if err := s.Check(); err != nil {
		return Quote{}, err
	}
	if on.IsZero() {
		return Quote{}, errors.New("a quote needs the day it is made on")
	}
	q := Quote{Date: on, ValidUntil: on.AddDays(p.QuoteValidityDays), FeeNet: p.TerminationFeeNet, Installments: []QuotedInstallment{}}
	value := new(big.Rat)
	for _, inst := range s.Installments {
		if inst.Status != InstallmentScheduled || !inst.DueDate.After(on) {
			continue
		}
		n := on.MonthsUntil(inst.DueDate)
		q.Installments = append(q.Installments, QuotedInstallment{Number: inst.Number, DueDate: inst.DueDate, Net: inst.Amount.Net, Months: n})
		q.RemainingNet += inst.Amount.Net
		factor := discountFactor(p.TerminationYearlyRateBasisPoints, n)
		value.Add(value, factor.Mul(factor, new(big.Rat).SetInt64(inst.Amount.Net)))
	}
	if len(q.Installments) > 0 {
		if lastDay := q.Installments[0].DueDate.AddDays(-1); lastDay.Before(q.ValidUntil) {
			q.ValidUntil = lastDay
		}
	}
	q.DiscountedNet = round(value)
	last := s.Installments[len(s.Installments)-1].Amount
	q.Total = pricing.FromNet(last.Currency, q.DiscountedNet+q.FeeNet, last.TaxRate)
	return q, nil
}

// discountFactor is 1 / (1 + y/12)^n exactly, for a yearly rate y in
// basis points: (120000 / (120000 + y))^n.
func discountFactor(yearlyBasisPoints int64, n int) *big.Rat {
	months := big.NewInt(int64(n))
	num := new(big.Int).Exp(big.NewInt(12*basisPointScale), months, nil)
	den := new(big.Int).Exp(big.NewInt(12*basisPointScale+yearlyBasisPoints), months, nil)
	return new(big.Rat).SetFrac(num, den)
}

// ValidOn reports whether the quote can be accepted on a day.
func (q Quote) ValidOn(d civil.Date) bool { return !d.Before(q.Date) && !d.After(q.ValidUntil) }
