// Package temporalcli finds, installs and runs the pinned Temporal CLI, whose
// dev server (with the Web UI) backs `tenure dev` and the integration tests.
// The CLI is built from its own module graph, never from Tenure's go.mod:
// its server code does not compile against the Temporal API version the SDK
// pulls in.
package temporalcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// The pinned CLI: the newest the module proxy can build. It embeds Temporal
// server 1.29.1 and Web UI 2.42.1.
const (
	Module        = "github.com/temporalio/cli/cmd/temporal"
	Version       = "v1.5.1"
	ServerVersion = "1.29.1"
)

// Find returns the path of a usable Temporal CLI, installing the pinned one
// into dir/bin when none is found. explicit, when set, is used as is.
func Find(ctx context.Context, explicit, dir string) (string, error) {
	if explicit != "" {
		if err := checkBinary(ctx, explicit); err != nil {
			return "", fmt.Errorf("dev.temporal_cli (TENURE_DEV_TEMPORAL_CLI) = %s: %w", explicit, err)
		}
		return explicit, nil
	}
	local, err := filepath.Abs(filepath.Join(dir, "bin", "temporal"))
	if err != nil {
		return "", err
	}
	if checkBinary(ctx, local) == nil {
		return local, nil
	}
	if onPath, err := exec.LookPath("temporal"); err == nil && checkBinary(ctx, onPath) == nil {
		return onPath, nil
	}
	return local, Install(ctx, filepath.Dir(local))
}

// checkBinary accepts a CLI that embeds the pinned server version.
func checkBinary(ctx context.Context, path string) error {
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return fmt.Errorf("cannot run it: %w", err)
	}
	if !strings.Contains(string(out), "Server "+ServerVersion) {
		return fmt.Errorf("it reports %q; Tenure needs the CLI %s (Server %s)", strings.TrimSpace(string(out)), Version, ServerVersion)
	}
	return nil
}

// Install builds the pinned CLI into binDir with `go install`. An exclusive
// file lock makes concurrent installs (parallel test packages) wait for the
// first instead of racing it.
func Install(ctx context.Context, binDir string) error {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return errors.New("the Temporal CLI is not installed and Go is not on PATH to build it: " +
			"install Go, or set dev.temporal_cli (TENURE_DEV_TEMPORAL_CLI) to a temporal " + Version + " binary")
	}
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(binDir, ".install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("locking %s: %w", lock.Name(), err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)

	target := filepath.Join(binDir, "temporal")
	if checkBinary(ctx, target) == nil {
		return nil // installed by whoever held the lock before us
	}
	cmd := exec.CommandContext(ctx, goTool, "install", Module+"@"+Version)
	// GOFLAGS from the caller (such as -mod=vendor) must not leak into a
	// build of another module.
	cmd.Env = append(os.Environ(), "GOBIN="+binDir, "GOFLAGS=")
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("installing the Temporal CLI (go install %s@%s) failed: %w\n%s\n"+
			"Set dev.temporal_cli (TENURE_DEV_TEMPORAL_CLI) to an existing temporal %s binary to skip the build",
			Module, Version, err, tail(output.String(), 20), Version)
	}
	return checkBinary(ctx, target)
}

func tail(s string, lines int) string {
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}
