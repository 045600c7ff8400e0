package testenv

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/client"

	"github.com/tenurehq/tenure/api/seller"
	"github.com/tenurehq/tenure/config"
	"github.com/tenurehq/tenure/db"
	"github.com/tenurehq/tenure/domain/invoicing"
	"github.com/tenurehq/tenure/foundation/telemetry"
	"github.com/tenurehq/tenure/services"
	"github.com/tenurehq/tenure/workflows"
)

// Config is the default configuration (with the machine's TENURE_*
// variables, but no stray tenure.yaml) plus test signing keys.
func Config(t testing.TB) *config.Config {
	t.Helper()
	empty := filepath.Join(t.TempDir(), "tenure.yaml")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(empty)
	if err != nil {
		t.Fatal(err)
	}
	// Uploaded files and error reports go to the test's own directory.
	cfg.DataDir = t.TempDir()
	cfg.Auth.SigningKey = "test-signing-key-" + strings.Repeat("0", 32)
	cfg.Links.SigningKey = "test-links-key-" + strings.Repeat("1", 32)
	cfg.Webhooks.SecretKey = "test-webhooks-key-" + strings.Repeat("2", 32)
	cfg.Mandates.IBANKeys = []string{TestIBANKey}
	cfg.Console.TOTPKeys = []string{TestTOTPKey}
	return cfg
}

// TestTOTPKey is the console's TOTP key ring's key in tests.
const TestTOTPKey = "test-1:YWJjZGVmMDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODk="

// TestIBANKey is the IBAN key ring's key in tests ("id:base64", 32 bytes).
const TestIBANKey = "test-1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="

// Worker runs Tenure's workers and webhook relay on the client's namespace
// until the test ends, as `tenure worker` does.
func Worker(t testing.TB, cfg *config.Config, store *db.Store, c client.Client) {
	t.Helper()
	ObservedWorker(t, cfg, store, c, nil)
}

// ObservedWorker is Worker counting into metrics.
func ObservedWorker(t testing.TB, cfg *config.Config, store *db.Store, c client.Client, metrics *telemetry.Metrics) {
	t.Helper()
	startWorker(t, cfg, store, c, workflows.Deps{Logger: AppLogger(), Metrics: metrics, Mandates: Mandates{}})
}

// CheckoutWorker is Worker issuing invoices under the mandates customers
// signed at checkout, as `tenure worker` does, logging to logger.
func CheckoutWorker(t testing.TB, cfg *config.Config, store *db.Store, c client.Client, logger *slog.Logger) {
	t.Helper()
	ring, err := cfg.Mandates.IBANRing()
	if err != nil {
		t.Fatal(err)
	}
	startWorker(t, cfg, store, c, workflows.Deps{Logger: logger, Mandates: invoicing.CheckoutMandates{Ring: ring}})
}

// startWorker runs the workers of the dependencies completed with the
// configuration, the store, the event views and the sandbox's fixtures.
func startWorker(t testing.TB, cfg *config.Config, store *db.Store, c client.Client, deps workflows.Deps) {
	t.Helper()
	fixtures, err := services.NewFixtures(cfg, store, c)
	if err != nil {
		t.Fatal(err)
	}
	deps.Config, deps.Store, deps.Views, deps.Fixtures = cfg, store, seller.NewEventViews(cfg), fixtures
	workers, err := workflows.NewWorkers(c, deps)
	if err != nil {
		t.Fatal(err)
	}
	if err := workers.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(workers.Stop)
}
