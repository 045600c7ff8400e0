package offers

import "github.com/tenurehq/tenure/db/dbgen"

// Reach is how much of an offer its customer's credentials open: the
// shared token of its checkout link and the customer tokens exchanged for
// it. It follows the offer's life, so that a link forwarded or left in a
// browser's history stops opening the customer's data once the customer
// has checked out.
type Reach int

const (
	// ReachRevoked is an offer that is over: accepted, declined, voided,
	// expired, or superseded by an edit. Its customer tokens are revoked;
	// its link opens the status alone.
	ReachRevoked Reach = iota
	// ReachStatus is an offer its customer has checked out, under review:
	// its customer tokens open nothing any more, its link the status alone.
	ReachStatus
	// ReachCheckout is an open offer: its link and its customer tokens open
	// the whole checkout, the customer's data included.
	ReachCheckout
)

// Standing is what an offer's reach depends on.
type Standing struct {
	Status Status
	// Superseded is set when an edit replaced the offer with another.
	Superseded bool
}

// Reach is how much the offer's customer credentials open now.
func (s Standing) Reach() Reach {
	switch {
	case s.Superseded:
		return ReachRevoked
	case s.Status == Created:
		return ReachCheckout
	case s.Status == PendingReview:
		return ReachStatus
	}
	return ReachRevoked
}

// StandingOf is where a stored offer stands.
func StandingOf(row dbgen.Offer) Standing {
	return Standing{Status: Status(row.Status), Superseded: row.SupersededByID != nil}
}
