package api

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
)

// healthz answers as long as the process serves HTTP.
func healthz(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

// readiness reports whether the dependencies a request needs answer:
// PostgreSQL and the Temporal frontend.
type readiness struct {
	pool     *pgxpool.Pool
	temporal client.Client
}

func (r readiness) handle(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 2*time.Second)
	defer cancel()
	checks := fiber.Map{"postgres": "ok", "temporal": "ok"}
	ready := true
	if err := r.pool.Ping(ctx); err != nil {
		checks["postgres"], ready = "unreachable", false
	}
	if _, err := r.temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		checks["temporal"], ready = "unreachable", false
	}
	if !ready {
		c.Status(fiber.StatusServiceUnavailable)
		checks["status"] = "unavailable"
	} else {
		checks["status"] = "ok"
	}
	return c.JSON(checks)
}
