package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/tenurehq/tenure/foundation/telemetry"
)

// healthz answers as long as the process serves HTTP.
func healthz(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

// readiness reports whether the dependencies a request needs answer:
// PostgreSQL and the Temporal frontend (the admin listener answers the
// same at its own /readyz).
func readiness(r telemetry.Readiness) fiber.Handler {
	return func(c *fiber.Ctx) error {
		report, ok := r.Check(c.UserContext())
		if !ok {
			c.Status(fiber.StatusServiceUnavailable)
		}
		return c.JSON(report)
	}
}
