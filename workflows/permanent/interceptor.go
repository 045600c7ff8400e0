package permanent

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
)

// Interceptor is the worker interceptor that ends the retries of permanent
// failures. The SDK runs local activities through the same inbound
// interceptors as activities, so the entity workflows' persistence is
// covered too.
func Interceptor() interceptor.WorkerInterceptor { return &workerInterceptor{} }

type workerInterceptor struct {
	interceptor.WorkerInterceptorBase
}

func (*workerInterceptor) InterceptActivity(_ context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	a := &activityInterceptor{}
	a.Next = next
	return a
}

type activityInterceptor struct {
	interceptor.ActivityInboundInterceptorBase
}

// ExecuteActivity runs the activity and, when it failed permanently,
// answers a non-retryable error naming the activity and the reason. An
// application error the activity chose itself is left as it is: its type
// is what its workflow and callers act on.
func (a *activityInterceptor) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	result, err := a.Next.ExecuteActivity(ctx, in)
	if err == nil {
		return result, nil
	}
	info := activity.GetInfo(ctx)
	// The activity logger names the workflow id, run id, activity type
	// and attempt.
	logger := activity.GetLogger(ctx)
	app, chosen := err.(*temporal.ApplicationError)
	if !chosen {
		if reason, ok := Classify(err); ok {
			logger.Error("activity failed permanently; it is not retried", "reason", reason, "error", err)
			message := fmt.Sprintf("%s failed permanently: %s", info.ActivityType.Name, reason)
			return result, temporal.NewNonRetryableApplicationError(message, ErrorType, err)
		}
	}
	if info.IsLocalActivity && !(chosen && app.NonRetryable()) {
		// The SDK logs failed activities, but not failed local ones.
		logger.Warn("local activity attempt failed", "error", err)
	}
	return result, err
}
