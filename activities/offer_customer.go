package activities

import (
	"context"
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/domain/discounts"
	"github.com/tenurehq/tenure/domain/offers"
	"github.com/tenurehq/tenure/domain/refusal"
)

// OfferCustomerChange stores a change the end customer made to an open
// offer.
type OfferCustomerChange struct {
	Offer  OfferRef
	Change offers.CustomerChange
}

// CustomerAcceptance is what the customer accepted: what they agreed to,
// the discount code to redeem ("" for none), and the offer's updated_at
// they last read.
type CustomerAcceptance struct {
	Agreement     offers.Agreement
	DiscountCode  string
	LastUpdatedAt time.Time
}

// OfferSubmission moves an offer to review as its customer accepted it.
// The acceptance is embedded, so its fields encode beside Offer.
type OfferSubmission struct {
	Offer OfferTransition
	CustomerAcceptance
}

// DiscountRefusal is the error type of a discount code an acceptance could
// not redeem; its detail is the discounts.Reason.
const DiscountRefusal = "InvalidDiscountCode"

// ChangeCheckout stores the customer's change. The offer's workflow runs
// one change at a time and only while the offer is open, so the document
// read here is the latest; running it again stores the same document.
func (a *Offers) ChangeCheckout(ctx context.Context, in OfferCustomerChange) error {
	o, err := offers.Load(ctx, a.Store.Queries, in.Offer.SellerID, in.Offer.OfferID)
	if err != nil {
		return err
	}
	params, err := offers.CheckoutRow(o, in.Change)
	if err != nil {
		return err
	}
	_, err = a.Store.SetOfferCheckout(ctx, params)
	return err
}

// Submit moves the offer to review with what the customer agreed to, in
// one transaction with the redemption of the discount code, the signature
// of the customer's SEPA mandate (if one was given) and the event:
// either all of it happens or none. An offer that changed since the
// customer read it is refused (OutOfDate); so is a code another offer took
// the last use of meanwhile. A retry after the commit finds the offer
// moved and does nothing.
func (a *Offers) Submit(ctx context.Context, in OfferSubmission) error {
	t := in.Offer
	return changeWithEvents(ctx, a.Store, a.Dispatcher, a.Logger, a.Metrics, func(q *dbgen.Queries, fx *effects) error {
		o, err := offers.Load(ctx, q, t.SellerID, t.OfferID)
		if err != nil {
			return err
		}
		if offers.Status(o.Row.Status) == t.To {
			return nil
		}
		if !o.Row.UpdatedAt.Equal(in.LastUpdatedAt) {
			return refuse(refusal.New(refusal.OutOfDate, "the offer changed at %s, after the customer last read it (%s): read it again before accepting",
				o.Row.UpdatedAt.UTC().Format(time.RFC3339Nano), in.LastUpdatedAt.UTC().Format(time.RFC3339Nano)))
		}
		if in.DiscountCode != "" {
			_, err := discounts.Redeem(ctx, q, t.SellerID, t.OfferID, in.DiscountCode, time.Now())
			var invalid *discounts.Invalid
			if errors.As(err, &invalid) {
				return temporal.NewNonRetryableApplicationError(invalid.Message, DiscountRefusal, nil, string(invalid.Reason))
			}
			if err != nil {
				return err
			}
		}
		params, err := offers.SubmissionRow(o, t.From, t.To, in.Agreement)
		if err != nil {
			return err
		}
		row, err := q.SubmitOfferCheckout(ctx, params)
		if err != nil {
			return err
		}
		// The customer's acceptance is the signature of the mandate they
		// gave, if any.
		if _, err := q.SignOfferMandate(ctx, t.OfferID); err != nil {
			return err
		}
		fx.moved(offerEntity, string(t.From), string(t.To))
		return a.emitOfferEvent(fx.emit, row, t.Event)
	})
}
