package activities

import (
	"context"
	"strconv"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/contracts"
	"github.com/tenurehq/tenure/domain/ledger"
	"github.com/tenurehq/tenure/domain/pricing"
)

// chargeRevenue is the revenue account of each kind of charge; a kind not
// listed is charge revenue.
var chargeRevenue = map[contracts.ChargeKind]ledger.Account{
	contracts.ChargeBuyOut:           ledger.ChargeRevenue,
	contracts.ChargeEarlyTermination: ledger.ChargeRevenue,
	contracts.ChargeClaim:            ledger.ChargeRevenue,
	contracts.ChargeDunningFee:       ledger.FeeIncome,
	contracts.ChargeDefaultInterest:  ledger.InterestIncome,
}

// postReceivable books what a contract's customer owes from now on, in
// the transaction that makes it owed: Dr customer_receivable (the
// contract) gross, Cr revenue net, Cr vat_payable tax. The invoice that
// documents it is issued in the same transaction (package invoicing); the
// journal is posted whether or not one is (an order without a mandate), so
// the receivable always equals what the contract owes.
func postReceivable(ctx context.Context, q *dbgen.Queries, key string, contractID uuid.UUID, amount pricing.Money, revenue ledger.Account) error {
	_, err := ledger.Post(ctx, q, ledger.Journal{
		Key: key, Kind: "invoice", Currency: amount.Currency,
		Entries: []ledger.Entry{
			ledger.Debit(ledger.CustomerReceivable, amount.Gross).Contract(contractID),
			ledger.Credit(revenue, amount.Net),
			ledger.Credit(ledger.VATPayable, amount.Gross-amount.Net),
		},
	})
	return err
}

// installmentKey names an installment's journal of an event ("due",
// "waived").
func installmentKey(contractID uuid.UUID, number int, event string) string {
	return "contract/" + contractID.String() + "/installment/" + strconv.Itoa(number) + "/" + event
}

// postInstallmentDue books an installment that fell due.
func postInstallmentDue(ctx context.Context, q *dbgen.Queries, contractID uuid.UUID, inst contracts.Installment) error {
	return postReceivable(ctx, q, installmentKey(contractID, inst.Number, "due"), contractID, inst.Amount, ledger.RentalRevenue)
}

// postInstallmentForgiven reverses the booking of an installment forgiven
// while due (due → waived): the customer no longer owes it, the revenue
// and the tax go back. An invoice that billed it stays as issued; the
// reversal is the book's credit (decision 0243).
func postInstallmentForgiven(ctx context.Context, q *dbgen.Queries, contractID uuid.UUID, inst contracts.Installment) error {
	a := inst.Amount
	_, err := ledger.Post(ctx, q, ledger.Journal{
		Key: installmentKey(contractID, inst.Number, "waived"), Kind: "invoice", Currency: a.Currency,
		Entries: []ledger.Entry{
			ledger.Debit(ledger.RentalRevenue, a.Net),
			ledger.Debit(ledger.VATPayable, a.Gross-a.Net),
			ledger.Credit(ledger.CustomerReceivable, a.Gross).Contract(contractID),
		},
	})
	return err
}

// postChargeDue books a charge added to a contract.
func postChargeDue(ctx context.Context, q *dbgen.Queries, chargeID, contractID uuid.UUID, kind contracts.ChargeKind, amount pricing.Money) error {
	revenue, ok := chargeRevenue[kind]
	if !ok {
		revenue = ledger.ChargeRevenue
	}
	return postReceivable(ctx, q, "charge/"+chargeID.String()+"/due", contractID, amount, revenue)
}
