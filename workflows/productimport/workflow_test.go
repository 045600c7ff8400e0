package productimport

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/tenurehq/tenure/activities"
)

// newEnv is a test environment where the import activity does what run
// says; the imports marked failed are added to failed.
func newEnv(run func(activities.ProductImportInput) (activities.ProductImportResult, error), failed *[]uuid.UUID) *testsuite.TestWorkflowEnvironment {
	var suite testsuite.WorkflowTestSuite
	env := suite.NewTestWorkflowEnvironment()
	Register(env, a)
	env.OnActivity(a.RunProductImport, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.ProductImportInput) (activities.ProductImportResult, error) {
			return run(in)
		})
	env.OnActivity(a.FailProductImport, mock.Anything, mock.Anything).Return(
		func(_ context.Context, in activities.ProductImportInput) error {
			*failed = append(*failed, in.ImportID)
			return nil
		}).Maybe()
	return env
}

func TestImportProductsRunsTheImport(t *testing.T) {
	id := uuid.New()
	var ran, failed []uuid.UUID
	env := newEnv(func(in activities.ProductImportInput) (activities.ProductImportResult, error) {
		ran = append(ran, in.ImportID)
		return activities.ProductImportResult{Status: "completed", Total: 12, Imported: 11, Rejected: 1}, nil
	}, &failed)

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: id})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var result activities.ProductImportResult
	if err := env.GetWorkflowResult(&result); err != nil {
		t.Fatal(err)
	}
	if result.Imported != 11 || result.Status != "completed" || len(ran) != 1 || ran[0] != id || len(failed) != 0 {
		t.Errorf("result %+v, ran %v, marked failed %v", result, ran, failed)
	}
}

func TestImportProductsRetriesTransientFailures(t *testing.T) {
	attempts := 0
	var failed []uuid.UUID
	env := newEnv(func(activities.ProductImportInput) (activities.ProductImportResult, error) {
		attempts++
		if attempts < 3 {
			return activities.ProductImportResult{}, errors.New("connection reset")
		}
		return activities.ProductImportResult{Status: "completed"}, nil
	}, &failed)

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: uuid.New()})
	if err := env.GetWorkflowError(); err != nil || attempts != 3 || len(failed) != 0 {
		t.Fatalf("err %v after %d attempts, marked failed %v", err, attempts, failed)
	}
}

func TestImportProductsGivesUpOnAnUnknownImport(t *testing.T) {
	attempts := 0
	var failed []uuid.UUID
	env := newEnv(func(activities.ProductImportInput) (activities.ProductImportResult, error) {
		attempts++
		return activities.ProductImportResult{}, temporal.NewNonRetryableApplicationError("no such import", activities.ErrImportNotFound, nil)
	}, &failed)

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: uuid.New()})
	if err := env.GetWorkflowError(); err == nil || attempts != 1 {
		t.Errorf("err %v after %d attempts", err, attempts)
	}
}

// A run that fails for good (a permanent failure ends its retries) marks
// its import failed, and the workflow fails with the reason.
func TestImportProductsMarksAPermanentFailureFailed(t *testing.T) {
	id := uuid.New()
	var failed []uuid.UUID
	env := newEnv(func(activities.ProductImportInput) (activities.ProductImportResult, error) {
		return activities.ProductImportResult{}, temporal.NewNonRetryableApplicationError(
			"catalog.RunProductImport failed permanently: a value breaks a rule the stored data must follow", "PermanentFailure", nil)
	}, &failed)

	env.ExecuteWorkflow(ImportProducts, Input{ImportID: id})
	if err := env.GetWorkflowError(); err == nil || !strings.Contains(err.Error(), "a value breaks a rule the stored data must follow") {
		t.Errorf("the workflow ended with %v", err)
	}
	if len(failed) != 1 || failed[0] != id {
		t.Errorf("marked failed %v, want %s", failed, id)
	}
}

func TestWorkflowID(t *testing.T) {
	id := uuid.MustParse("0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f")
	if got := WorkflowID(id); got != "product-import/0193c3a8-7c1e-7b3e-9a4e-4b1f2d3c4e5f" {
		t.Errorf("got %s", got)
	}
}
