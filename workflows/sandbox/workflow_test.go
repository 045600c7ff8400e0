package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
)

// registerFixture registers a fixture activity that records the sellers it
// seeded and reports count fixtures.
func registerFixture(env *testsuite.TestWorkflowEnvironment, name string, count int, seeded *[]string) {
	env.RegisterActivityWithOptions(func(_ context.Context, in SeedInput) (int, error) {
		*seeded = append(*seeded, name+":"+in.SellerID.String())
		return count, nil
	}, activity.RegisterOptions{Name: name})
}

func TestSeedSellerSeedsShippingMethodsCatalogThenOffers(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	seller := uuid.New()
	var seeded []string
	registerFixture(env, SeedShippingMethodsActivity, 2, &seeded)
	registerFixture(env, SeedCatalogActivity, 5, &seeded)
	registerFixture(env, SeedOffersActivity, 12, &seeded)

	env.ExecuteWorkflow(SeedSeller, SeedInput{SellerID: seller})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var result SeedResult
	if err := env.GetWorkflowResult(&result); err != nil {
		t.Fatal(err)
	}
	want := []string{SeedShippingMethodsActivity + ":" + seller.String(), SeedCatalogActivity + ":" + seller.String(), SeedOffersActivity + ":" + seller.String()}
	if result.ShippingMethods != 2 || result.Products != 5 || result.OffersAndOrders != 12 || strings.Join(seeded, " ") != strings.Join(want, " ") {
		t.Errorf("result %+v, seeded %v", result, seeded)
	}
}

func TestSeedSellerRetriesFailedActivities(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	attempts := 0
	env.RegisterActivityWithOptions(func(context.Context, SeedInput) (int, error) {
		attempts++
		if attempts < 3 {
			return 0, errors.New("database unavailable")
		}
		return 2, nil
	}, activity.RegisterOptions{Name: SeedShippingMethodsActivity})
	var seeded []string
	registerFixture(env, SeedCatalogActivity, 5, &seeded)
	registerFixture(env, SeedOffersActivity, 12, &seeded)

	env.ExecuteWorkflow(SeedSeller, SeedInput{SellerID: uuid.New()})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("a transient failure is retried: %v", err)
	}
	if attempts != 3 {
		t.Errorf("%d attempts", attempts)
	}
}

func TestSeedSellerGivesUpAfterMaxAttempts(t *testing.T) {
	for _, step := range []string{SeedShippingMethodsActivity, SeedOffersActivity} {
		var suite testsuite.WorkflowTestSuite
		env := suite.NewTestWorkflowEnvironment()
		attempts := map[string]int{}
		for _, name := range []string{SeedShippingMethodsActivity, SeedCatalogActivity, SeedOffersActivity} {
			env.RegisterActivityWithOptions(func(context.Context, SeedInput) (int, error) {
				attempts[name]++
				if name == step {
					return 0, errors.New("the sku fixture product is missing")
				}
				return 1, nil
			}, activity.RegisterOptions{Name: name})
		}
		env.ExecuteWorkflow(SeedSeller, SeedInput{SellerID: uuid.New()})
		err := env.GetWorkflowError()
		if err == nil || !strings.Contains(err.Error(), "the sku fixture product is missing") {
			t.Errorf("%s: the workflow ended with %v", step, err)
		}
		if attempts[step] != MaxAttempts {
			t.Errorf("%s: %d attempts, want %d", step, attempts[step], MaxAttempts)
		}
	}
}

func TestWorkflowID(t *testing.T) {
	id := uuid.MustParse("0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f")
	if got := WorkflowID(id); got != "sandbox-fixtures/0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f" {
		t.Errorf("got %s", got)
	}
}
