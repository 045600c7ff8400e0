package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/testsuite"

	"github.com/tenurehq/tenure/activities"
)

// newEnv is a test environment with the fixture activities registered.
func newEnv() *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	Register(env, a)
	return env
}

// fixture makes a fixture activity record the sellers it seeded and report
// count fixtures.
func fixture(env *testsuite.TestWorkflowEnvironment, step func(context.Context, activities.SeedInput) (int, error), count int, seeded *[]string) {
	name := activities.Name(step)
	env.OnActivity(step, mock.Anything, mock.Anything).Return(func(_ context.Context, in activities.SeedInput) (int, error) {
		*seeded = append(*seeded, name+":"+in.SellerID.String())
		return count, nil
	})
}

func TestSeedSellerSeedsShippingMethodsCatalogThenOffers(t *testing.T) {
	env := newEnv()
	seller := uuid.New()
	var seeded []string
	fixture(env, a.SeedShippingMethods, 2, &seeded)
	fixture(env, a.SeedCatalog, 5, &seeded)
	fixture(env, a.SeedOffers, 12, &seeded)

	env.ExecuteWorkflow(SeedSeller, SeedInput{SellerID: seller})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var result SeedResult
	if err := env.GetWorkflowResult(&result); err != nil {
		t.Fatal(err)
	}
	want := []string{"sandbox.SeedShippingMethods:" + seller.String(), "sandbox.SeedCatalog:" + seller.String(), "sandbox.SeedOffers:" + seller.String()}
	if result.ShippingMethods != 2 || result.Products != 5 || result.OffersAndOrders != 12 || strings.Join(seeded, " ") != strings.Join(want, " ") {
		t.Errorf("result %+v, seeded %v", result, seeded)
	}
}

func TestSeedSellerRetriesFailedActivities(t *testing.T) {
	env := newEnv()
	attempts := 0
	env.OnActivity(a.SeedShippingMethods, mock.Anything, mock.Anything).Return(func(context.Context, activities.SeedInput) (int, error) {
		attempts++
		if attempts < 3 {
			return 0, errors.New("database unavailable")
		}
		return 2, nil
	})
	var seeded []string
	fixture(env, a.SeedCatalog, 5, &seeded)
	fixture(env, a.SeedOffers, 12, &seeded)

	env.ExecuteWorkflow(SeedSeller, SeedInput{SellerID: uuid.New()})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("a transient failure is retried: %v", err)
	}
	if attempts != 3 {
		t.Errorf("%d attempts", attempts)
	}
}

func TestSeedSellerGivesUpAfterMaxAttempts(t *testing.T) {
	steps := []func(context.Context, activities.SeedInput) (int, error){a.SeedShippingMethods, a.SeedCatalog, a.SeedOffers}
	for _, failing := range []func(context.Context, activities.SeedInput) (int, error){a.SeedShippingMethods, a.SeedOffers} {
		env := newEnv()
		failingName := activities.Name(failing)
		attempts := map[string]int{}
		for _, step := range steps {
			name := activities.Name(step)
			env.OnActivity(step, mock.Anything, mock.Anything).Return(func(context.Context, activities.SeedInput) (int, error) {
				attempts[name]++
				if name == failingName {
					return 0, errors.New("the sku fixture product is missing")
				}
				return 1, nil
			})
		}
		env.ExecuteWorkflow(SeedSeller, SeedInput{SellerID: uuid.New()})
		err := env.GetWorkflowError()
		if err == nil || !strings.Contains(err.Error(), "the sku fixture product is missing") {
			t.Errorf("%s: the workflow ended with %v", failingName, err)
		}
		if attempts[failingName] != MaxAttempts {
			t.Errorf("%s: %d attempts, want %d", failingName, attempts[failingName], MaxAttempts)
		}
	}
}

func TestWorkflowID(t *testing.T) {
	id := uuid.MustParse("0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f")
	if got := WorkflowID(id); got != "sandbox-fixtures/0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f" {
		t.Errorf("got %s", got)
	}
}
