package contracts

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// Schedule is a contract's installments: one per month of its term (with
// its extensions), installment i (0-based) covering the term's period i
// and due on its first day. It is fixed when the term starts and only ever
// grows, by Extend; installments change nothing but their status.
type Schedule struct {
	Term         Term          `json:"term"`
	Installments []Installment `json:"installments"`
}

// NewSchedule is the schedule of a term at a monthly amount, every
// installment scheduled. Each installment is the same monthly amount,
// rounded once when the amount was made (see RentalOf), so the schedule's
// total is the monthly amount times the months exactly, net and gross.
func NewSchedule(t Term, monthly pricing.Money) (Schedule, error) {
	if _, err := NewTerm(t.Start, t.Months); err != nil {
		return Schedule{}, err
	}
	if err := checkMonthly(monthly); err != nil {
		return Schedule{}, err
	}
	return Schedule{Term: Term{Start: t.Start}}.grow(t.Months, monthly), nil
}

// Extend is the schedule grown by a number of months at a monthly amount
// (an extension term at its reduced rate, or one more month at the same
// rate): the numbers continue from the last installment and the periods
// from the day after the term's end, on the start date's grid.
func (s Schedule) Extend(months int, monthly pricing.Money) (Schedule, error) {
	if err := s.Check(); err != nil {
		return Schedule{}, err
	}
	if months < 1 {
		return Schedule{}, fmt.Errorf("a schedule grows by at least one month, got %d", months)
	}
	if err := checkMonthly(monthly); err != nil {
		return Schedule{}, err
	}
	if currency := s.currency(); monthly.Currency != currency {
		return Schedule{}, fmt.Errorf("%w: the schedule is in %s, the extension in %s", pricing.ErrMixedCurrencies, currency, monthly.Currency)
	}
	return s.grow(months, monthly), nil
}

// grow appends the installments of the next months, on a copy.
func (s Schedule) grow(months int, monthly pricing.Money) Schedule {
	out := Schedule{Term: s.Term.Extended(months), Installments: slices.Grow(slices.Clone(s.Installments), months)}
	for i := s.Term.Months; i < out.Term.Months; i++ {
		p := out.Term.Period(i)
		out.Installments = append(out.Installments, Installment{
			Number: i + 1, Period: p, DueDate: p.From, Amount: monthly, Status: InstallmentScheduled,
		})
	}
	return out
}

// Check reports the first way the schedule breaks what every schedule
// holds, nil when it holds: a term of one month or more with one
// installment per month, numbered from 1, each covering its period of the
// term (so the periods follow one another without a gap or an overlap) and
// due on the period's first day, all amounts in one currency with gross
// not below net, and every status a known one. Schedules read from storage
// are checked before they are grown.
func (s Schedule) Check() error {
	if _, err := NewTerm(s.Term.Start, s.Term.Months); err != nil {
		return err
	}
	if len(s.Installments) != s.Term.Months {
		return fmt.Errorf("a term of %d months has %d installments", s.Term.Months, len(s.Installments))
	}
	currency := s.currency()
	for i, inst := range s.Installments {
		switch p := s.Term.Period(i); {
		case inst.Number != i+1:
			return fmt.Errorf("installment %d is numbered %d", i+1, inst.Number)
		case inst.Period != p:
			return fmt.Errorf("installment %d covers %s to %s, not its period %s to %s", inst.Number, inst.Period.From, inst.Period.To, p.From, p.To)
		case inst.DueDate != p.From:
			return fmt.Errorf("installment %d is due on %s, not on its period's first day %s", inst.Number, inst.DueDate, p.From)
		case inst.Amount.Currency != currency:
			return fmt.Errorf("%w: installment %d is in %s, the first in %s", pricing.ErrMixedCurrencies, inst.Number, inst.Amount.Currency, currency)
		case !slices.Contains(installmentStatuses, inst.Status):
			return fmt.Errorf("installment %d has the unknown status %q", inst.Number, inst.Status)
		}
		if err := checkMonthly(inst.Amount); err != nil {
			return fmt.Errorf("installment %d: %w", inst.Number, err)
		}
	}
	return nil
}

// End is the last day of the schedule's last period.
func (s Schedule) End() civil.Date { return s.Term.End() }

// Total is the sum of all installments, whatever their status: each
// installment's amount added up, never rounded again.
func (s Schedule) Total() (pricing.Money, error) {
	amounts := make([]pricing.Money, len(s.Installments))
	for i, inst := range s.Installments {
		amounts[i] = inst.Amount
	}
	return pricing.SumOf(s.currency(), amounts...)
}

// FallingDue are the scheduled installments whose due date is on or before
// a day, in order: those to make due on that day, including any a stopped
// worker missed, none twice (a due one is no longer scheduled).
func (s Schedule) FallingDue(on civil.Date) []Installment {
	var out []Installment
	for _, inst := range s.Installments {
		if inst.Status == InstallmentScheduled && !inst.DueDate.After(on) {
			out = append(out, inst)
		}
	}
	return out
}

// currency is the currency of the schedule's amounts.
func (s Schedule) currency() string {
	if len(s.Installments) == 0 {
		return ""
	}
	return s.Installments[0].Amount.Currency
}

// checkMonthly refuses a monthly amount without a currency, below zero or
// with gross below net.
func checkMonthly(m pricing.Money) error {
	switch {
	case m.Currency == "":
		return errors.New("a monthly amount needs its currency")
	case m.Net < 0 || m.Gross < m.Net:
		return fmt.Errorf("a monthly amount must have 0 ≤ net ≤ gross, got net %d and gross %d", m.Net, m.Gross)
	}
	return nil
}
