package productimport

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
	"github.com/tenurehq/tenure/workflows/call"
)

// ImportProducts runs one recorded product import to its end. The activity
// resumes after its last heartbeat when retried, and finds a finished
// import finished, so the workflow can be run again safely.
func ImportProducts(ctx workflow.Context, in Input) (activities.ProductImportResult, error) {
	i := &importing{input: in}
	i.setup(ctx)
	return i.run()
}

type importing struct {
	input Input
	ctx   workflow.Context
}

// a names the product import activities; the worker registers the real ones.
var a *activities.ProductImports

func (i *importing) setup(ctx workflow.Context) {
	i.ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// 1,000 products take seconds; the margin covers a slow database.
		StartToCloseTimeout: 30 * time.Minute,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        time.Second,
			BackoffCoefficient:     2,
			MaximumInterval:        time.Minute,
			NonRetryableErrorTypes: []string{activities.ErrImportNotFound},
		},
	})
}

// recordFailure is the change that marks an import failed when its run
// fails for good; runs before it (and their histories) end without.
const recordFailure = "record-failure"

func (i *importing) run() (activities.ProductImportResult, error) {
	in := activities.ProductImportInput{ImportID: i.input.ImportID}
	result, err := call.Activity(i.ctx, a.RunProductImport, in)
	if err == nil || workflow.GetVersion(i.ctx, recordFailure, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return result, err
	}
	// Transient failures are retried without end, so this one is
	// permanent: the import is marked failed, and the workflow fails with
	// the reason.
	failing := workflow.WithActivityOptions(i.ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
	})
	if markErr := call.Effect(failing, a.FailProductImport, in); markErr != nil {
		workflow.GetLogger(i.ctx).Error("the failed import could not be marked failed", "error", markErr)
	}
	return result, err
}
