package productimport

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/tenurehq/tenure/activities"
)

// newEnv is a test environment where the import activity does what run says.
func newEnv(run func(activities.ProductImportInput) (activities.ProductImportResult, error)) *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	Register(env, a)
	env.OnActivity(a.RunProductImport, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.ProductImportInput) (activities.ProductImportResult, error) {
			return run(in)
		})
	return env
}

func TestImportProductsRunsTheImport(t *testing.T) {
	id := uuid.New()
	var ran []uuid.UUID
	env := newEnv(func(in activities.ProductImportInput) (activities.ProductImportResult, error) {
		ran = append(ran, in.ImportID)
		return activities.ProductImportResult{Status: "completed", Total: 12, Imported: 11, Rejected: 1}, nil
	})

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: id})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var result activities.ProductImportResult
	if err := env.GetWorkflowResult(&result); err != nil {
		t.Fatal(err)
	}
	if result.Imported != 11 || result.Status != "completed" || len(ran) != 1 || ran[0] != id {
		t.Errorf("result %+v, ran %v", result, ran)
	}
}

func TestImportProductsRetriesTransientFailures(t *testing.T) {
	attempts := 0
	env := newEnv(func(activities.ProductImportInput) (activities.ProductImportResult, error) {
		attempts++
		if attempts < 3 {
			return activities.ProductImportResult{}, errors.New("connection reset")
		}
		return activities.ProductImportResult{Status: "completed"}, nil
	})

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: uuid.New()})
	if err := env.GetWorkflowError(); err != nil || attempts != 3 {
		t.Fatalf("err %v after %d attempts", err, attempts)
	}
}

func TestImportProductsGivesUpOnAnUnknownImport(t *testing.T) {
	attempts := 0
	env := newEnv(func(activities.ProductImportInput) (activities.ProductImportResult, error) {
		attempts++
		return activities.ProductImportResult{}, temporal.NewNonRetryableApplicationError("no such import", activities.ErrImportNotFound, nil)
	})

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: uuid.New()})
	if err := env.GetWorkflowError(); err == nil || attempts != 1 {
		t.Errorf("err %v after %d attempts", err, attempts)
	}
}

func TestWorkflowID(t *testing.T) {
	id := uuid.MustParse("0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f")
	if got := WorkflowID(id); got != "product-import/0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f" {
		t.Errorf("got %s", got)
	}
}
