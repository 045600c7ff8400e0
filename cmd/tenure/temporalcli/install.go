// Package temporalcli finds, installs and runs the pinned Temporal CLI, whose
// dev server (with the Web UI) backs `tenure dev` and the integration tests,
// and installs the Temporal server and SQL schema tool of the same version
// for the cluster test. They are built from their own module graphs, never
// from Tenure's go.mod: the server code does not compile against the
// Temporal API version the SDK pulls in.
package temporalcli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
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

// cli is the pinned CLI as a program go install builds.
var cli = program{name: "temporal", pkg: Module, version: Version, reports: "Server " + ServerVersion,
	hint: "set dev.temporal_cli (TENURE_DEV_TEMPORAL_CLI) to a temporal " + Version + " binary"}

// checkBinary accepts a CLI that embeds the pinned server version.
func checkBinary(ctx context.Context, path string) error { return cli.check(ctx, path) }

// Install builds the pinned CLI into binDir with `go install`.
func Install(ctx context.Context, binDir string) error { return install(ctx, binDir, cli) }

// program is a Temporal command built from its module at a pinned version.
type program struct {
	// name is the binary's file name in the bin directory.
	name string
	// pkg and version are what go install builds.
	pkg, version string
	// reports is part of what `--version` prints when it is the pinned one.
	reports string
	// hint tells the user how to do without the build.
	hint string
}

// check accepts a binary whose version output names the pinned version.
func (p program) check(ctx context.Context, path string) error {
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return fmt.Errorf("cannot run it: %w", err)
	}
	if !strings.Contains(string(out), p.reports) {
		return fmt.Errorf("it reports %q; Tenure needs %s %s (%s)", strings.TrimSpace(string(out)), p.name, p.version, p.reports)
	}
	return nil
}

// install builds programs (of one module and version) into binDir with
// `go install`, unless they are there already. An exclusive file lock
// makes concurrent installs (parallel test packages) wait for the first
// instead of racing it. go install names a binary after its package, so
// the build goes to a directory of its own, then each binary is renamed
// into place.
func install(ctx context.Context, binDir string, programs ...program) error {
	if checkAll(ctx, binDir, programs) == nil {
		return nil
	}
	first := programs[0]
	goTool, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("%s is not installed and Go is not on PATH to build it: install Go, or %s", first.name, first.hint)
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

	if checkAll(ctx, binDir, programs) == nil {
		return nil // installed by whoever held the lock before us
	}
	build, err := os.MkdirTemp(binDir, ".build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(build)
	args := []string{"install"}
	for _, p := range programs {
		args = append(args, p.pkg+"@"+p.version)
	}
	cmd := exec.CommandContext(ctx, goTool, args...)
	// GOFLAGS from the caller (such as -mod=vendor) must not leak into a
	// build of another module.
	cmd.Env = append(os.Environ(), "GOBIN="+build, "GOFLAGS=")
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building %s (go %s) failed: %w\n%s\nTo skip the build, %s",
			first.name, strings.Join(args, " "), err, tail(output.String(), 20), first.hint)
	}
	for _, p := range programs {
		if err := os.Rename(filepath.Join(build, path.Base(p.pkg)), filepath.Join(binDir, p.name)); err != nil {
			return err
		}
	}
	return checkAll(ctx, binDir, programs)
}

// checkAll checks every program's binary in binDir.
func checkAll(ctx context.Context, binDir string, programs []program) error {
	for _, p := range programs {
		if err := p.check(ctx, filepath.Join(binDir, p.name)); err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
	}
	return nil
}

func tail(s string, lines int) string {
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}
