package workflows

import (
	"context"
	"errors"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
)

// starters start the workflows of offers and orders the offer activities
// wrote (an edit's superseding offer, an accepted offer's order).
type starters struct {
	client client.Client
}

// StartOffer starts the workflow of an offer whose row exists, in created.
func (s starters) StartOffer(ctx context.Context, in activities.OfferStart, reference string) error {
	return s.startOnce(ctx, offer.StartOptions(in.OfferID, in.SellerID, reference), offer.Offer, offer.Input{
		OfferID: in.OfferID, SellerID: in.SellerID, Review: in.Review, Revision: offer.Revision,
		State: &offer.State{Status: offer.Transitions.Target(offer.Create), ExpiresAt: in.ExpiresAt},
	})
}

// StartOrder starts the workflow of an order whose rows exist, in created.
func (s starters) StartOrder(ctx context.Context, in activities.OrderStart, reference string) error {
	return s.startOnce(ctx, order.StartOptions(in.OrderID, in.SellerID, reference), order.Order,
		order.Input{OrderID: in.OrderID, SellerID: in.SellerID, State: order.State{Status: order.Opening().To}})
}

// startOnce starts a workflow whose options refuse a second run: one that
// runs or ran already counts as started, so a retried activity is harmless.
func (s starters) startOnce(ctx context.Context, opts client.StartWorkflowOptions, wf any, input any) error {
	_, err := s.client.ExecuteWorkflow(ctx, opts, wf, input)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}
