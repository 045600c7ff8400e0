package checkout

import "slices"

// IDVResult says whether the end customer's identity must be verified
// before the offer can be accepted, and how far that has come.
type IDVResult string

// The results, in the contract's words.
const (
	IDVNotRequired IDVResult = "not_required"
	IDVRequired    IDVResult = "required"
	IDVPending     IDVResult = "pending"
	IDVVerified    IDVResult = "verified"
	IDVFailed      IDVResult = "failed"
)

// SessionState is the state of the latest verification session of an
// offer's customer, as the provider reported it.
type SessionState string

// The session states; SessionNone when no session was started.
const (
	SessionNone     SessionState = ""
	SessionPending  SessionState = "pending"
	SessionVerified SessionState = "verified"
	SessionFailed   SessionState = "failed"
)

// IDVRules decide when the identity of the person who checks out must be
// verified: when the offer's purchase amount is above AmountThreshold, or
// the company has one of LegalForms (whose owners are liable in person).
type IDVRules struct {
	// AmountThreshold is in gross minor units.
	AmountThreshold int64
	// LegalForms are codes of LegalForms.
	LegalForms []string
}

// Requirement answers for an offer: not_required when neither rule
// applies (whatever sessions exist); otherwise the latest session's state,
// or required when no session was started. purchaseAmount is the gross
// value of every line of the offer (the Seller API's instead_of_amount,
// the amount the risk review weighs).
func (r IDVRules) Requirement(purchaseAmount int64, legalForm string, latest SessionState) IDVResult {
	if purchaseAmount <= r.AmountThreshold && !slices.Contains(r.LegalForms, legalForm) {
		return IDVNotRequired
	}
	switch latest {
	case SessionPending:
		return IDVPending
	case SessionVerified:
		return IDVVerified
	case SessionFailed:
		return IDVFailed
	}
	return IDVRequired
}

// AllowsAcceptance reports whether an offer with this result may be
// accepted: nothing to verify, or verified. After a failure the customer
// may start a new session.
func (r IDVResult) AllowsAcceptance() bool {
	return r == IDVNotRequired || r == IDVVerified
}
