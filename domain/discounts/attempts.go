package discounts

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/webhook"
)

// Attempts is the budget that keeps discount codes from being guessed:
// at most PerOffer failed attempts on one offer and PerAddress from one
// client address within any Window, the right code refused too once
// either is spent. It lives in PostgreSQL, so every API process counts
// against the same budget, and a restart forgives nothing.
type Attempts struct {
	Store      *db.Store
	PerOffer   int
	PerAddress int
	Window     time.Duration
	Now        func() time.Time
}

// Attempt is a customer's use of a discount code on an offer.
type Attempt struct {
	SellerID, OfferID uuid.UUID
	// Address is the client's address as the rate limits count it.
	Address string
	// Payload renders the offer for the event that tells its seller the
	// offer's attempts are refused (webhook.OfferDiscountAttemptsExceeded).
	Payload func() (json.RawMessage, error)
}

// TooManyAttempts refuses an attempt, whatever its code, because the
// offer's or the address's failed attempts within the window have spent
// their budget.
type TooManyAttempts struct {
	// Offer is set when the offer's budget refused the attempt, else the
	// address's did.
	Offer bool
	// Limit is the budget that refused the attempt.
	Limit int
	// RetryAfter is the time until an attempt is counted again, Reset the
	// time until the budget is whole again.
	RetryAfter, Reset time.Duration
	// Reported is the event that told the seller, when this refusal was
	// the first within the window; uuid.Nil otherwise.
	Reported uuid.UUID
}

func (e *TooManyAttempts) Error() string {
	who := "this address"
	if e.Offer {
		who = "this offer"
	}
	return fmt.Sprintf("%s has had %d discount codes refused within the window; retry after %s", who, e.Limit, e.RetryAfter)
}

// Reservation is an attempt counted as failed until Release gives it
// back.
type Reservation struct {
	attempts *Attempts
	id       int64
}

// Reserve counts an attempt as failed before its code is checked, so that
// concurrent attempts, in any process, cannot overdraw a budget. When the
// failures already counted against its offer or its address fill that
// budget, it counts nothing and answers *TooManyAttempts, recording the
// seller's event if the offer's seller was not told within the window.
func (a *Attempts) Reserve(ctx context.Context, at Attempt) (*Reservation, error) {
	now := a.Now()
	windowStart := now.Add(-a.Window)
	id, err := a.Store.RecordDiscountFailure(ctx, dbgen.RecordDiscountFailureParams{
		OfferID: at.OfferID, Address: at.Address, FailedAt: now, WindowStart: windowStart,
	})
	if err != nil {
		return nil, err
	}
	others, err := a.Store.ListRecentDiscountFailures(ctx, dbgen.ListRecentDiscountFailuresParams{
		OfferID: at.OfferID, Address: at.Address, WindowStart: windowStart, ID: id,
	})
	r := &Reservation{attempts: a, id: id}
	if err != nil {
		return nil, r.giveBack(ctx, err)
	}
	refusal := a.refusal(others, now)
	if refusal == nil {
		return r, nil
	}
	if err := r.Release(ctx); err != nil {
		return nil, err
	}
	if refusal.Reported, err = a.report(ctx, at, now); err != nil {
		return nil, err
	}
	return nil, refusal
}

// refusal is the refusal of an attempt whose offer or address has others
// (newest first) within the window, nil when both budgets have room.
func (a *Attempts) refusal(others []dbgen.ListRecentDiscountFailuresRow, now time.Time) *TooManyAttempts {
	for _, budget := range []struct {
		offer bool
		limit int
	}{{true, a.PerOffer}, {false, a.PerAddress}} {
		var times []time.Time
		for _, f := range others {
			if (budget.offer && f.OfOffer) || (!budget.offer && f.OfAddress) {
				times = append(times, f.FailedAt)
			}
		}
		if len(times) < budget.limit {
			continue
		}
		// An attempt is counted again once all but limit-1 of these have
		// left the window.
		return &TooManyAttempts{
			Offer: budget.offer, Limit: budget.limit,
			RetryAfter: times[budget.limit-1].Add(a.Window).Sub(now),
			Reset:      times[0].Add(a.Window).Sub(now),
		}
	}
	return nil
}

// report records the event that tells the offer's seller its attempts are
// refused, once per window: its id, or uuid.Nil when the seller was told
// within the window already.
func (a *Attempts) report(ctx context.Context, at Attempt, now time.Time) (uuid.UUID, error) {
	var reported uuid.UUID
	err := a.Store.InTx(ctx, func(q *dbgen.Queries) error {
		first, err := q.ReportDiscountLockout(ctx, dbgen.ReportDiscountLockoutParams{
			OfferID: at.OfferID, ReportedAt: now, WindowStart: now.Add(-a.Window),
		})
		if err != nil || first == 0 {
			return err
		}
		payload, err := at.Payload()
		if err != nil {
			return err
		}
		reported, err = webhook.Record(ctx, q, webhook.NewEvent{
			SellerID: at.SellerID, Type: webhook.OfferDiscountAttemptsExceeded, ObjectID: at.OfferID, Payload: payload,
		})
		return err
	})
	return reported, err
}

// Release gives the attempt back: its code applied, or was never checked.
func (r *Reservation) Release(ctx context.Context) error {
	return r.attempts.Store.DeleteDiscountFailure(ctx, r.id)
}

// giveBack releases the reservation after failed, which it returns with
// any error of the release.
func (r *Reservation) giveBack(ctx context.Context, failed error) error {
	if err := r.Release(ctx); err != nil {
		return fmt.Errorf("%w (and the attempt could not be given back: %w)", failed, err)
	}
	return failed
}
