package webhook

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// traceParentKey is the W3C header the trace context is kept under.
const traceParentKey = "traceparent"

// traceParent is the W3C traceparent of ctx's span, kept with an event so
// that its deliveries join the trace of the change that recorded it; nil
// when that change is not traced.
func traceParent(ctx context.Context) *string {
	if sc := trace.SpanContextFromContext(ctx); !sc.IsValid() || !sc.IsSampled() {
		return nil
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	parent := carrier.Get(traceParentKey)
	return &parent
}

// continueTrace makes the stored trace context the parent of what ctx
// starts when ctx has no span of its own: the relay, dispatching an event
// whose recorder stopped first, continues the recorder's trace.
func continueTrace(ctx context.Context, stored *string) context.Context {
	if stored == nil || trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{traceParentKey: *stored})
}
