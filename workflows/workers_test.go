package workflows_test

import (
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/identity"
	"github.com/tenurehq/tenure/internal/testenv"
	"github.com/tenurehq/tenure/workflows/sandbox"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// The sandbox fixture workflow runs on the real worker against a real
// Temporal server and PostgreSQL, and running it twice changes nothing.
func TestWorkerRunsSandboxFixtures(t *testing.T) {
	store := testenv.Database(t)
	tc := testenv.Temporal(t)
	testenv.Worker(t, testenv.Config(t), store, tc)

	seller, err := identity.CreateSeller(t.Context(), store, "Fixture Seller", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	for run := range 2 {
		we, err := tc.ExecuteWorkflow(t.Context(), client.StartWorkflowOptions{
			ID:        sandbox.WorkflowID(seller.Seller.ID),
			TaskQueue: sandbox.TaskQueue,
		}, sandbox.SeedSeller, sandbox.SeedInput{SellerID: seller.Seller.ID})
		if err != nil {
			t.Fatal(err)
		}
		var result sandbox.SeedResult
		if err := we.Get(t.Context(), &result); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if result.ShippingMethods != 2 {
			t.Errorf("run %d: %d fixture shipping methods", run, result.ShippingMethods)
		}
	}
	methods, err := store.ListShippingMethods(t.Context(), dbgen.ListShippingMethodsParams{SellerID: seller.Seller.ID, RowLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	supported := map[string]bool{}
	for _, m := range methods {
		supported[m.SellerShippingMethodReference] = m.Supported
	}
	if len(methods) != 2 || !supported[sandbox.SupportedShippingReference] || supported[sandbox.UnsupportedShippingReference] {
		t.Errorf("fixtures after two runs: %+v", methods)
	}
}
