package ledger

// Account is one of the book's accounts. The customer's accounts are kept
// per contract and the seller's per seller (an Entry's scope); the others
// are Tenure's own.
type Account string

// The chart of accounts.
const (
	// CustomerReceivable is what a contract's customer owes on issued
	// invoices that no collection file has asked for yet.
	CustomerReceivable Account = "customer_receivable"
	// CustomerInCollection is what a contract's customer owes on invoices
	// submitted for collection and not yet settled by the bank.
	CustomerInCollection Account = "customer_in_collection"
	// RentalRevenue is the net of invoiced installments.
	RentalRevenue Account = "rental_revenue"
	// ChargeRevenue is the net of invoiced one-off charges: buy-outs and
	// early terminations.
	ChargeRevenue Account = "charge_revenue"
	// VATPayable is the tax invoiced, owed to the tax office.
	VATPayable Account = "vat_payable"
	// Bank is the creditor account collections arrive on and payouts
	// leave from.
	Bank Account = "bank"
	// FeeIncome is the dunning flat fees (§288 (5) BGB).
	FeeIncome Account = "fee_income"
	// InterestIncome is default interest (§288 (2) BGB).
	InterestIncome Account = "interest_income"
	// WriteOffExpense is what was owed and given up.
	WriteOffExpense Account = "write_off_expense"
	// SellerPayable is what Tenure owes a seller for the equipment of its
	// completed orders, until it is paid out.
	SellerPayable Account = "seller_payable"
	// RentalAssets is the equipment Tenure bought from sellers to rent out.
	RentalAssets Account = "rental_assets"
	// FinancingFeeIncome is the fee Tenure keeps from a seller's payout.
	FinancingFeeIncome Account = "financing_fee_income"
)

// Receivable are the accounts that together hold what a contract's
// customer owes: invoiced and not yet paid.
var Receivable = []Account{CustomerReceivable, CustomerInCollection}

// names are the accounts' names as stored.
func names(accounts []Account) []string {
	out := make([]string, len(accounts))
	for i, a := range accounts {
		out[i] = string(a)
	}
	return out
}
