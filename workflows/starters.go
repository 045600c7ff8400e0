package workflows

import (
	"context"
	"errors"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/workflows/contract"
	"github.com/tenurehq/tenure/workflows/offer"
	"github.com/tenurehq/tenure/workflows/order"
)

// starters start the workflows of offers, orders and contracts whose rows
// activities wrote (an edit's superseding offer, an accepted offer's
// order, a confirmed order's contracts).
type starters struct {
	client client.Client
	// contracts are the settings contracts start with.
	contracts contract.Settings
}

// newStarters start workflows with a client, contracts with the
// configuration's settings.
func newStarters(c client.Client, cfg *config.Config) starters {
	return starters{client: c, contracts: contract.Settings{
		Timezone: cfg.Contracts.Timezone, Sandbox: cfg.Environment == config.Sandbox, DunningDays: cfg.Collections.DunningDays,
	}}
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

// StartContract starts the workflow of a contract whose row exists, which
// opens it.
func (s starters) StartContract(ctx context.Context, in activities.ContractRef, reference string) error {
	return s.startOnce(ctx, contract.StartOptions(in.ContractID, in.SellerID, reference), contract.Contract,
		contract.Input{ContractID: in.ContractID, SellerID: in.SellerID, Settings: s.contracts})
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
