package sandbox

import (
	"go.temporal.io/sdk/worker"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// Register registers the fixture workflow and its activities with the
// worker of TaskQueue.
func Register(r worker.Registry, a *activities.SandboxFixtures) {
	r.RegisterWorkflow(SeedSeller)
	call.Register(r, a.SeedShippingMethods, a.SeedCatalog, a.SeedOffers)
}
