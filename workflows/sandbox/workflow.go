package sandbox

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// SeedSeller creates a sandbox seller's fixtures. Each step is an idempotent
// activity, so a retried or repeated run leaves the same records.
func SeedSeller(ctx workflow.Context, in SeedInput) (SeedResult, error) {
	s := &seeding{input: activities.SeedInput{SellerID: in.SellerID}}
	s.setup(ctx)
	return s.run()
}

type seeding struct {
	input activities.SeedInput
	ctx   workflow.Context
}

// a names the fixture activities; the worker registers the real ones.
var a *activities.SandboxFixtures

// MaxAttempts bounds the tries of each seeding step (about 15 s of
// backoff): a step that still fails needs a human, who reads the reason
// `tenure sellers create` prints and seeds again once it is fixed.
// Permanent failures end at the first attempt (package permanent).
const MaxAttempts = 5

var retry = &temporal.RetryPolicy{
	InitialInterval:    time.Second,
	BackoffCoefficient: 2,
	MaximumInterval:    30 * time.Second,
	MaximumAttempts:    MaxAttempts,
}

func (s *seeding) setup(ctx workflow.Context) {
	s.ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         retry,
	})
}

func (s *seeding) run() (SeedResult, error) {
	var result SeedResult
	var err error
	if result.ShippingMethods, err = call.Activity(s.ctx, a.SeedShippingMethods, s.input); err != nil {
		return result, err
	}
	if result.Products, err = call.Activity(s.ctx, a.SeedCatalog, s.input); err != nil {
		return result, err
	}
	// Driving a dozen offers and orders (one waits for its expiry) takes
	// seconds, and reports progress through heartbeats.
	offers := workflow.WithActivityOptions(s.ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 5 * time.Minute,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy:         retry,
	})
	result.OffersAndOrders, err = call.Activity(offers, a.SeedOffers, s.input)
	return result, err
}
