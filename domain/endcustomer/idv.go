package endcustomer

import "slices"

// IDVRules decide when the identity of the person who checks out must be
// verified: when the offer's purchase amount is above AmountThreshold, or
// the company has one of LegalForms (whose owners are liable in person).
// What the customer is told then (required, or the state of a
// verification) is package idv's.
type IDVRules struct {
	// AmountThreshold is in gross minor units.
	AmountThreshold int64
	// LegalForms are codes of LegalForms.
	LegalForms []string
}

// Applies reports whether an offer needs a verification. purchaseAmount is
// the gross value of every line of the offer (the Seller API's
// instead_of_amount, the amount the risk review weighs); legalForm is ""
// while the customer has not given one.
func (r IDVRules) Applies(purchaseAmount int64, legalForm string) bool {
	return purchaseAmount > r.AmountThreshold || legalForm != "" && slices.Contains(r.LegalForms, legalForm)
}
