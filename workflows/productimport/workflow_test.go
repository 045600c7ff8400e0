package productimport

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
)

func TestImportProductsRunsTheImport(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	id := uuid.New()
	var ran []uuid.UUID
	env.RegisterActivityWithOptions(func(_ context.Context, in Input) (Result, error) {
		ran = append(ran, in.ImportID)
		return Result{Status: "completed", Total: 12, Imported: 11, Rejected: 1}, nil
	}, activity.RegisterOptions{Name: RunImportActivity})

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: id})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var result Result
	if err := env.GetWorkflowResult(&result); err != nil {
		t.Fatal(err)
	}
	if result.Imported != 11 || result.Status != "completed" || len(ran) != 1 || ran[0] != id {
		t.Errorf("result %+v, ran %v", result, ran)
	}
}

func TestImportProductsRetriesTransientFailures(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	attempts := 0
	env.RegisterActivityWithOptions(func(context.Context, Input) (Result, error) {
		attempts++
		if attempts < 3 {
			return Result{}, errors.New("connection reset")
		}
		return Result{Status: "completed"}, nil
	}, activity.RegisterOptions{Name: RunImportActivity})

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: uuid.New()})
	if err := env.GetWorkflowError(); err != nil || attempts != 3 {
		t.Fatalf("err %v after %d attempts", err, attempts)
	}
}

func TestImportProductsGivesUpOnAnUnknownImport(t *testing.T) {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	attempts := 0
	env.RegisterActivityWithOptions(func(context.Context, Input) (Result, error) {
		attempts++
		return Result{}, temporal.NewNonRetryableApplicationError("no such import", ErrImportNotFound, nil)
	}, activity.RegisterOptions{Name: RunImportActivity})

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
