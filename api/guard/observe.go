package guard

import (
	"time"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/tenurehq/tenure/foundation/telemetry"
)

// tracerName names the spans of Tenure's HTTP server.
const tracerName = "github.com/tenurehq/tenure/api"

// routeNameKey is where a route outside the contracts (the token endpoint,
// CSV uploads) leaves the name its metrics and spans use.
const routeNameKey = "tenure.route_name"

// Named labels the requests of a route outside the contracts.
func Named(name string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		c.Locals(routeNameKey, name)
		return c.Next()
	}
}

// operationName is the contract's operation id of the request, a named
// route's name, or telemetry.Unmatched: never the path, whose ids would
// make every request a series of its own.
func operationName(c *fiber.Ctx) string {
	if op := guardedOperation(c); op != nil {
		return op.id
	}
	if name, ok := c.Locals(routeNameKey).(string); ok {
		return name
	}
	return telemetry.Unmatched
}

// observeRequests opens each request's server span (continuing the
// caller's trace when it sends a traceparent header), so that the services,
// the Temporal client and the SQL statements below it join one trace, and
// counts the request with its duration once it is answered.
func observeRequests(metrics *telemetry.Metrics) fiber.Handler {
	tracer := otel.Tracer(tracerName)
	return func(c *fiber.Ctx) error {
		start := time.Now()
		method := methodLabel(c.Method())
		ctx := otel.GetTextMapPropagator().Extract(c.UserContext(), headerCarrier{c})
		ctx, span := tracer.Start(ctx, "HTTP "+method, trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		c.SetUserContext(ctx)
		err := c.Next()
		status := c.Response().StatusCode()
		operation := operationName(c)
		metrics.HTTPRequest(operation, method, status, time.Since(start))
		if span.IsRecording() {
			span.SetName(operation)
			span.SetAttributes(
				attribute.String("http.request.method", method),
				attribute.Int("http.response.status_code", status),
				attribute.String("tenure.request_id", requestID(c)),
			)
			if status >= 500 {
				span.SetStatus(codes.Error, "")
			}
		}
		return err
	}
}

// methodLabel is the request's method as a constant: Fiber's method string
// points into a buffer the next request reuses, and a label keeps it. Any
// method not listed is "other", so a caller cannot grow the label set.
func methodLabel(method string) string {
	for _, m := range []string{fiber.MethodGet, fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch, fiber.MethodDelete, fiber.MethodHead, fiber.MethodOptions} {
		if method == m {
			return m
		}
	}
	return "other"
}

// headerCarrier reads the trace context from the request's headers.
type headerCarrier struct{ c *fiber.Ctx }

// Get returns the header's value.
func (h headerCarrier) Get(key string) string { return h.c.Get(key) }

// Set is never called: the server only extracts.
func (h headerCarrier) Set(string, string) {}

// Keys lists the request's header names.
func (h headerCarrier) Keys() []string {
	var keys []string
	h.c.Request().Header.VisitAll(func(key, _ []byte) { keys = append(keys, string(key)) })
	return keys
}

var _ propagation.TextMapCarrier = headerCarrier{}
