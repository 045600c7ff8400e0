package contracts

import (
	"fmt"

	"github.com/tenurehq/tenure/domain/pricing"
	"github.com/tenurehq/tenure/foundation/civil"
)

// EndOfTerm is how a contract's term ends: on the notice date the contract
// moves to ending and offers its options, which the customer can take until
// the end date and after it. Without a choice by the end date the contract
// goes on month by month at the same rate (MonthlyExtension), the usual
// rule of German rental contracts, until one of the options is taken.
type EndOfTerm struct {
	// NoticeDate is Policy.NoticeDays before the end date, or the start
	// date when the term is shorter than the notice.
	NoticeDate civil.Date `json:"notice_date"`
	// EndDate is the last day of the term.
	EndDate civil.Date `json:"end_date"`
	// Return ends the contract once every asset is back; it costs
	// nothing (a zero amount in the contract's currency).
	Return pricing.Money `json:"return"`
	// BuyOut is the one final charge for keeping the assets.
	BuyOut pricing.Money `json:"buy_out"`
	// TermExtension is a new term at a reduced rate.
	TermExtension Extension `json:"term_extension"`
	// MonthlyExtension goes on month by month at the rate of the last
	// installment; it is also what happens without a choice.
	MonthlyExtension Extension `json:"monthly_extension"`
}

// ExtensionMode is how a contract is extended.
type ExtensionMode string

// The ways to extend a contract.
const (
	// ExtendByTerm adds Policy.ExtensionMonths at the reduced rate.
	ExtendByTerm ExtensionMode = "term"
	// ExtendMonthly adds one month at a time at the same rate.
	ExtendMonthly ExtensionMode = "monthly"
)

// Extension is what extending a contract adds to its schedule: Months
// installments of Monthly (Schedule.Extend).
type Extension struct {
	Mode    ExtensionMode `json:"mode"`
	Months  int           `json:"months"`
	Monthly pricing.Money `json:"monthly"`
}

// EndOfTerm is the end of a schedule's term (with the extensions it has)
// and its options priced for the rental:
//
//   - buy-out: ResidualBasisPoints of the rental's net purchase price,
//     rounded once, taxed at the rental's rate;
//   - term extension: ExtensionMonths at ExtensionRateBasisPoints of the
//     rental's monthly net (the original rent, so extending twice does not
//     reduce it twice), rounded once, taxed at the rental's rate;
//   - monthly extension: one month at the amount of the schedule's last
//     installment.
func (p Policy) EndOfTerm(s Schedule, r Rental) (EndOfTerm, error) {
	if err := p.check(); err != nil {
		return EndOfTerm{}, err
	}
	if err := s.Check(); err != nil {
		return EndOfTerm{}, err
	}
	currency, rate := r.Monthly.Currency, r.Monthly.TaxRate
	if last := s.Installments[len(s.Installments)-1].Amount; last.Currency != currency {
		return EndOfTerm{}, fmt.Errorf("%w: the schedule is in %s, the rental in %s", pricing.ErrMixedCurrencies, last.Currency, currency)
	}
	end := s.End()
	notice := end.AddDays(-p.NoticeDays)
	if notice.Before(s.Term.Start) {
		notice = s.Term.Start
	}
	return EndOfTerm{
		NoticeDate: notice,
		EndDate:    end,
		Return:     pricing.Money{Currency: currency, TaxRate: rate},
		BuyOut:     pricing.FromNet(currency, portion(r.PurchaseNet, p.ResidualBasisPoints), rate),
		TermExtension: Extension{
			Mode:    ExtendByTerm,
			Months:  p.ExtensionMonths,
			Monthly: pricing.FromNet(currency, portion(r.Monthly.Net, p.ExtensionRateBasisPoints), rate),
		},
		MonthlyExtension: Extension{Mode: ExtendMonthly, Months: 1, Monthly: s.Installments[len(s.Installments)-1].Amount},
	}, nil
}

// Extension is the option of a mode, or an error for an unknown mode.
func (e EndOfTerm) Extension(mode ExtensionMode) (Extension, error) {
	switch mode {
	case ExtendByTerm:
		return e.TermExtension, nil
	case ExtendMonthly:
		return e.MonthlyExtension, nil
	}
	return Extension{}, fmt.Errorf("an extension is %q or %q, not %q", ExtendByTerm, ExtendMonthly, mode)
}
