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

// Requirement is an offer's result: the newest session's state once one
// exists (a pending one only while its link works), so a verification that
// happened shows what came of it; else whether the deployment's rules
// (checkout.IDVRules) require one.
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

// AllowsAcceptance reports whether an offer may be accepted as far as
// verification goes: the rules require none (whatever came of a
// verification the customer tried anyway), or the newest one verified the
// customer. After a failure the customer may start a new session.
func AllowsAcceptance(required bool, latest *Session, now time.Time) bool {
	return !required || Requirement(required, latest, now) == Verified
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
