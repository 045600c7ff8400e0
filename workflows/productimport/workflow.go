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

func (i *importing) run() (activities.ProductImportResult, error) {
	return call.Activity(i.ctx, a.RunProductImport, activities.ProductImportInput{ImportID: i.input.ImportID})
}
