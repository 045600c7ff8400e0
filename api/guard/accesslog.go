package guard

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel/trace"
)

// accessLog writes one structured line per request, with the request id, the
// trace id when the request is traced and, once authenticated, the seller id.
func accessLog(logger *slog.Logger) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		if err != nil {
			// Let the error handler write the response now, so the line
			// below logs the status the client really gets.
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				_ = c.SendStatus(fiber.StatusInternalServerError)
			}
		}
		attrs := []any{
			"request_id", requestID(c),
			"method", c.Method(),
			"path", c.Path(),
			"status", c.Response().StatusCode(),
			"duration", time.Since(start),
		}
		if span := trace.SpanContextFromContext(c.UserContext()); span.IsValid() {
			attrs = append(attrs, "trace_id", span.TraceID().String())
		}
		if claims, ok := claimsFrom(c.UserContext()); ok {
			attrs = append(attrs, "seller_id", claims.SellerID.String())
		}
		level := slog.LevelInfo
		if c.Response().StatusCode() >= 500 {
			level = slog.LevelError
		}
		logger.Log(c.UserContext(), level, "http request", attrs...)
		return nil
	}
}
