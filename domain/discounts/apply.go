package discounts

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/db/dbgen"
)

// Check finds the code a customer typed (in any case) among the seller's,
// by its digest and then compared in constant time, and says whether it
// can be applied at now: the code, or an *Invalid. Any code that is not
// one of the seller's, another seller's included, is NotFound.
func Check(ctx context.Context, q *dbgen.Queries, sellerID uuid.UUID, code string, now time.Time) (Code, error) {
	row, err := q.FindDiscountCode(ctx, dbgen.FindDiscountCodeParams{SellerID: sellerID, CodeDigest: digest(code)})
	if db.IsNotFound(err) || (err == nil && !sameCode(row.Code, code)) {
		return Code{}, invalid(NotFound, "the seller has no discount code %s", code)
	}
	if err != nil {
		return Code{}, err
	}
	c := fromRow(row)
	if reason := c.usable(now); reason != nil {
		return Code{}, reason
	}
	return c, nil
}

// Redeem applies a code to an offer and counts it, once per offer however
// often it is called: a redemption row unique per (code, offer) and a
// counter that only moves while the code is active, inside its window and
// below its limit. It answers an *Invalid when the code cannot be applied.
// q must belong to a transaction the caller rolls back on any error (the
// offer's acceptance), so a refused redemption leaves no row behind.
func Redeem(ctx context.Context, q *dbgen.Queries, sellerID, offerID uuid.UUID, code string, now time.Time) (Code, error) {
	c, err := Check(ctx, q, sellerID, code, now)
	if err != nil {
		return Code{}, err
	}
	inserted, err := q.InsertDiscountRedemption(ctx, dbgen.InsertDiscountRedemptionParams{DiscountCodeID: c.ID, OfferID: offerID})
	if err != nil {
		return Code{}, err
	}
	if inserted == 0 {
		// Applied to this offer before: it counted then.
		return c, nil
	}
	row, err := q.CountDiscountUse(ctx, dbgen.CountDiscountUseParams{ID: c.ID, Now: now})
	if db.IsNotFound(err) {
		// Another offer took the last use, or the seller deactivated the
		// code, since Check read it: say which.
		current, err := Get(ctx, q, sellerID, c.ID)
		if err != nil {
			return Code{}, err
		}
		if reason := current.usable(now); reason != nil {
			return Code{}, reason
		}
		return Code{}, invalid(Exhausted, "discount code %s has been used as often as it may be", c.Code)
	}
	if err != nil {
		return Code{}, err
	}
	return fromRow(row), nil
}
