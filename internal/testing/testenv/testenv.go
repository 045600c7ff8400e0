// Package testenv gives integration tests real dependencies: a fresh,
// migrated PostgreSQL database per test, and a Temporal dev server per test
// package (the pinned CLI, started through the SDK's test suite) with a fresh
// namespace per test.
package testenv

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	teardownMu sync.Mutex
	teardowns  []func()
)

// atExit registers work for Main to do after the package's tests.
func atExit(f func()) {
	teardownMu.Lock()
	defer teardownMu.Unlock()
	teardowns = append(teardowns, f)
}

// Main runs a package's tests, then stops what they started on demand
// (such as the dev server). Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	teardownMu.Lock()
	for i := len(teardowns) - 1; i >= 0; i-- {
		teardowns[i]()
	}
	teardownMu.Unlock()
	os.Exit(code)
}

// repoRoot is found when the test binary starts, before any test changes
// its working directory.
var repoRoot, repoRootErr = findRepoRoot()

// RepoRoot is the directory of Tenure's go.mod.
func RepoRoot() (string, error) { return repoRoot, repoRootErr }

func findRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

func background() context.Context { return context.Background() }

// AppLogger is the logger tests give Tenure's components: silent, unless
// TENURE_TEST_LOG is set, which sends everything to stderr for debugging.
func AppLogger() *slog.Logger {
	if os.Getenv("TENURE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
