package main

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/config"
)

// workflowWait is a command waiting on a workflow, bounded by limit.
type workflowWait struct {
	cfg        *config.Config
	temporal   client.Client
	taskQueue  string
	workflowID string
	limit      time.Duration
	started    time.Time
}

// context starts the wait: ctx bounded by its limit.
func (w *workflowWait) context(ctx context.Context) (context.Context, context.CancelFunc) {
	w.started = time.Now()
	return context.WithTimeout(ctx, w.limit)
}

// ranOut reports whether the wait's own limit passed, rather than the
// command being interrupted. It reads the clock: a call bounded by the
// limit may fail (deadline exceeded, stream cancelled) a moment before the
// context itself says so.
func (w *workflowWait) ranOut(parent, bounded context.Context) bool {
	deadline, _ := bounded.Deadline()
	return parent.Err() == nil && !time.Now().Before(deadline)
}

// gaveUp explains a wait that ran out (its limit, or a shorter one of the
// call waited on): where the command waited, and whether a worker polls
// the task queue the workflow needs.
func (w *workflowWait) gaveUp(ctx context.Context) error {
	return fmt.Errorf("gave up after %s waiting for workflow %s on Temporal at %s (namespace %q, task queue %q): %s",
		time.Since(w.started).Round(time.Second), w.workflowID, w.cfg.Temporal.Address, w.cfg.Temporal.Namespace, w.taskQueue, w.pollers(ctx))
}

// staleAfter is how long since its last poll a worker counts as gone (a
// polling worker asks again within about a minute).
const staleAfter = 90 * time.Second

// pollers says whether any worker polled the task queue lately.
func (w *workflowWait) pollers(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	resp, err := w.temporal.DescribeTaskQueue(ctx, w.taskQueue, enums.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil {
		return fmt.Sprintf("whether a worker polls it is unknown (%v)", err)
	}
	var last time.Time
	for _, p := range resp.GetPollers() {
		if seen := p.GetLastAccessTime().AsTime(); seen.After(last) {
			last = seen
		}
	}
	if since := time.Since(last); last.IsZero() || since > staleAfter {
		return "no worker polls that task queue; start `tenure worker` (or `tenure dev`) with the same database.url, temporal.address and temporal.namespace"
	}
	return "a worker polls it, so the workflow is slow or stuck: look at it in the Temporal UI and at the worker's log"
}
