package telemetry

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Admin is the admin listener's server: /metrics, /healthz and /readyz,
// apart from the public API, so that metrics never reach merchants.
type Admin struct {
	server *http.Server
	logger *slog.Logger
}

// NewAdmin builds the admin server of a process.
func NewAdmin(m *Metrics, ready Readiness, logger *slog.Logger) *Admin {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		// A collector that fails leaves its metric out; the rest is served.
		ErrorHandling: promhttp.ContinueOnError,
		Timeout:       10 * time.Second,
	}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		report, ok := ready.Check(r.Context())
		status := http.StatusOK
		if !ok {
			status = http.StatusServiceUnavailable
		}
		writeJSON(w, status, report)
	})
	return &Admin{
		server: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second},
		logger: logger,
	}
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// Serve answers on ln until ctx ends, then closes within a few seconds.
func (a *Admin) Serve(ctx context.Context, ln net.Listener) error {
	served := make(chan error, 1)
	go func() { served <- a.server.Serve(ln) }()
	a.logger.Info("serving metrics and health checks", "addr", ln.Addr().String())
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.server.Shutdown(stop); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
