package productimport

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ImportProducts runs one recorded product import to its end. The activity
// resumes after its last heartbeat when retried, and finds a finished
// import finished, so the workflow can be run again safely.
func ImportProducts(ctx workflow.Context, in Input) (Result, error) {
	i := &importing{input: in}
	i.setup(ctx)
	return i.run()
}

type importing struct {
	input Input
	ctx   workflow.Context
}

func (i *importing) setup(ctx workflow.Context) {
	i.ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		// 1,000 products take seconds; the margin covers a slow database.
		StartToCloseTimeout: 30 * time.Minute,
		HeartbeatTimeout:    time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        time.Second,
			BackoffCoefficient:     2,
			MaximumInterval:        time.Minute,
			NonRetryableErrorTypes: []string{ErrImportNotFound},
		},
	})
}

func (i *importing) run() (Result, error) {
	var result Result
	err := workflow.ExecuteActivity(i.ctx, RunImportActivity, i.input).Get(i.ctx, &result)
	return result, err
}
