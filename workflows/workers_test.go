package workflows_test

import (
	"io"
	"testing"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/sdk/testsuite"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/db/dbgen"
	"github.com/tenurehq/tenure/identity"
	"github.com/tenurehq/tenure/internal/testenv"
	"github.com/tenurehq/tenure/workflows"
	"github.com/tenurehq/tenure/workflows/sandbox"
	"github.com/tenurehq/tenure/workflows/searchattr"
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

// A cluster without Tenure's search attributes gets them from the worker,
// and asking again changes nothing. (The package's dev server registers
// them at start, so this test runs a bare one of its own.)
func TestEnsureSearchAttributes(t *testing.T) {
	server, err := testsuite.StartDevServer(t.Context(), testsuite.DevServerOptions{
		ExistingPath:  testenv.TemporalCLI(t),
		LogLevel:      "error",
		ClientOptions: &client.Options{Logger: testenv.Logger()},
		Stdout:        io.Discard,
		Stderr:        io.Discard,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Stop()
	c := server.Client()
	list := func() map[string]enums.IndexedValueType {
		resp, err := c.OperatorService().ListSearchAttributes(t.Context(), &operatorservice.ListSearchAttributesRequest{Namespace: "default"})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetCustomAttributes()
	}
	if _, ok := list()[searchattr.Status.GetName()]; ok {
		t.Fatal("a bare dev server already knows TenureStatus")
	}
	for range 2 {
		if err := workflows.EnsureSearchAttributes(t.Context(), c, "default"); err != nil {
			t.Fatal(err)
		}
	}
	registered := list()
	for name, kind := range searchattr.All() {
		want, _ := enums.IndexedValueTypeFromString(kind)
		if registered[name] != want {
			t.Errorf("%s is %s, want %s", name, registered[name], kind)
		}
	}
}
