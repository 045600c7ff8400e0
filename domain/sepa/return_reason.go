package sepa

import "slices"

// ReturnReason is the ISO 20022 code (ExternalReturnReason1Code) a bank
// gives for a collection it rejected, returned or refunded: AM04, MD01, …
type ReturnReason string

// returnReasonInfo is what Tenure knows of a reason: what it means and
// whether the same installment may be collected again under the same
// mandate.
type returnReasonInfo struct {
	meaning   string
	represent bool
}

// returnReasons are the codes the EPC's "Guidance on reason codes for SDD
// R-transactions" (EPC173-14) lets banks use for SEPA direct debits, with
// their ISO names' meaning.
//
// A collection is presented again only where the cause can pass by
// itself: no money today (AM04), a reason the debtor's bank keeps to
// itself (MS03, which banks use where they may not say AM04), and the
// banks' own timing and settlement failures (TM01, ED05). Everything the
// creditor must fix first (a wrong or closed account, no valid mandate)
// or the debtor decided (refused, refunded, deceased) is not presented
// again; it waits for a person. An unknown code is not presented again.
var returnReasons = map[ReturnReason]returnReasonInfo{
	"AC01": {"the account number is incorrect", false},
	"AC04": {"the account is closed", false},
	"AC06": {"the account is blocked, or blocked for direct debits", false},
	"AC13": {"the debtor's account is a consumer account (not allowed in B2B)", false},
	"AG01": {"direct debits are forbidden on this account", false},
	"AG02": {"the operation or file code is invalid", false},
	"AM04": {"insufficient funds", true},
	"AM05": {"a duplicate collection", false},
	"BE05": {"the creditor identifier is not recognised", false},
	"CNOR": {"the creditor's bank is not reachable in the scheme", false},
	"DNOR": {"the debtor's bank is not reachable in the scheme", false},
	"ED05": {"settlement failed", true},
	"FF01": {"the file format is invalid", false},
	"FOCR": {"returned after a cancellation request", false},
	"MD01": {"no valid mandate (none, revoked or expired)", false},
	"MD02": {"mandatory mandate data is missing or wrong", false},
	"MD06": {"the debtor asked for a refund", false},
	"MD07": {"the debtor is deceased", false},
	"MS02": {"refused by the debtor", false},
	"MS03": {"refused by the debtor's bank without a reason given", true},
	"RC01": {"the bank identifier (BIC) is incorrect", false},
	"RR01": {"the debtor's account or identification is missing (regulatory)", false},
	"RR02": {"the debtor's name or address is missing (regulatory)", false},
	"RR03": {"the creditor's name or address is missing (regulatory)", false},
	"RR04": {"a regulatory reason", false},
	"SL01": {"a service of the debtor's bank refused it (a direct debit block or allow list)", false},
	"TM01": {"received after the bank's cut-off time", true},
}

// Known reports whether Tenure knows the code.
func (r ReturnReason) Known() bool { _, ok := returnReasons[r]; return ok }

// Meaning says in English what the code means.
func (r ReturnReason) Meaning() string {
	if info, ok := returnReasons[r]; ok {
		return info.meaning
	}
	return "an unknown reason code"
}

// MayRepresent reports whether the installment may be collected again in
// a later run under the same mandate.
func (r ReturnReason) MayRepresent() bool { return returnReasons[r].represent }

// RepresentableReasons are the codes whose installments may be collected
// again (MayRepresent), for a query that picks them.
func RepresentableReasons() []string {
	var codes []string
	for code, info := range returnReasons {
		if info.represent {
			codes = append(codes, string(code))
		}
	}
	slices.Sort(codes)
	return codes
}
