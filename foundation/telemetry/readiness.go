package telemetry

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"go.temporal.io/sdk/client"
)

// readinessTimeout bounds each dependency's check, so an orchestrator's
// probe gets an answer before its own timeout.
const readinessTimeout = 2 * time.Second

// Readiness checks whether the dependencies a process needs answer.
type Readiness struct {
	pool     *pgxpool.Pool
	temporal client.Client
}

// NewReadiness checks PostgreSQL and the Temporal frontend.
func NewReadiness(pool *pgxpool.Pool, temporal client.Client) Readiness {
	return Readiness{pool: pool, temporal: temporal}
}

// Check asks each dependency and reports "ok" or "unreachable" for each
// ("postgres", "temporal", and "status" for the whole), and whether all
// answered.
func (r Readiness) Check(ctx context.Context) (map[string]string, bool) {
	ctx, cancel := context.WithTimeout(ctx, readinessTimeout)
	defer cancel()
	report := map[string]string{"postgres": "ok", "temporal": "ok", "status": "ok"}
	ready := true
	if err := r.pool.Ping(ctx); err != nil {
		report["postgres"], ready = "unreachable", false
	}
	if _, err := r.temporal.CheckHealth(ctx, &client.CheckHealthRequest{}); err != nil {
		report["temporal"], ready = "unreachable", false
	}
	if !ready {
		report["status"] = "unavailable"
	}
	return report, ready
}
