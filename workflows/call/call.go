// Package call runs activities from workflows through their method values,
// typed: call.Activity(ctx, a.SendAttempt, attempt) only compiles when the
// input and result match the method, and the activity runs under the name
// activities.Name gives it, which is the name the worker registered.
package call

import (
	"context"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/tenurehq/tenure/activities"
)

// Register registers activity methods with a worker under their names.
func Register(r worker.ActivityRegistry, methods ...any) {
	for _, m := range methods {
		r.RegisterActivityWithOptions(m, activity.RegisterOptions{Name: activities.Name(m)})
	}
}

// Activity runs an activity with the context's activity options and
// returns its result.
func Activity[In, Out any](ctx workflow.Context, fn func(context.Context, In) (Out, error), in In) (Out, error) {
	var out Out
	err := workflow.ExecuteActivity(ctx, activities.Name(fn), in).Get(ctx, &out)
	return out, err
}

// Effect runs an activity that returns no result.
func Effect[In any](ctx workflow.Context, fn func(context.Context, In) error, in In) error {
	return workflow.ExecuteActivity(ctx, activities.Name(fn), in).Get(ctx, nil)
}

// Local runs a local activity with the context's local activity options
// and returns its result.
func Local[In, Out any](ctx workflow.Context, fn func(context.Context, In) (Out, error), in In) (Out, error) {
	var out Out
	err := workflow.ExecuteLocalActivity(ctx, activities.Name(fn), in).Get(ctx, &out)
	return out, err
}

// LocalEffect runs a local activity that returns no result.
func LocalEffect[In any](ctx workflow.Context, fn func(context.Context, In) error, in In) error {
	return workflow.ExecuteLocalActivity(ctx, activities.Name(fn), in).Get(ctx, nil)
}
