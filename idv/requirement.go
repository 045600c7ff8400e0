package idv

import (
	"net/url"
	"time"

	"github.com/google/uuid"
)

// Result is what GET /offers/{id}/idv-requirement answers.
type Result string

// Requirement results.
const (
	NotRequired Result = "not_required"
	Required    Result = "required"
	Pending     Result = "pending"
	Verified    Result = "verified"
	Failed      Result = "failed"
)

// Facts are what the rules decide on: the offer's purchase amount (gross,
// minor units) and the customer's legal form.
type Facts struct {
	PurchaseAmount int64
	LegalForm      string
}

// Rule says whether an offer needs verification before any session. The
// deployment's rules (amount threshold, legal forms) plug in here.
type Rule func(Facts) bool

// Requirement is an offer's result: the newest session's state once one
// exists (a pending one only while its link works), else what the rule
// says.
func Requirement(required bool, latest *Session, now time.Time) Result {
	if latest != nil {
		switch latest.Status {
		case SessionVerified:
			return Verified
		case SessionFailed:
			return Failed
		case SessionPending:
			if now.Before(latest.LinkExpiresAt) {
				return Pending
			}
		}
	}
	if required {
		return Required
	}
	return NotRequired
}

// withSession adds idv_session to the URL the customer returns to.
func withSession(returnURL string, id uuid.UUID) (string, error) {
	u, err := url.Parse(returnURL)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("idv_session", id.String())
	u.RawQuery = q.Encode()
	return u.String(), nil
}
